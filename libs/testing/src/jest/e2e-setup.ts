import { Agent, setGlobalDispatcher } from 'undici';

// fetch keeps idle connections for as long as the server's Keep-Alive header allows, less a
// second: 71 s against the apps' 72. A request sent in that last second, on a machine busy
// enough to fire timers late, meets the server closing the socket ("other side closed").
// Partners' clients keep far shorter idle times; so do the suites.
setGlobalDispatcher(new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 }));
