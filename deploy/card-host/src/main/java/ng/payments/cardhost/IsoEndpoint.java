package ng.payments.cardhost;

import java.io.IOException;
import java.net.Socket;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jpos.core.ConfigurationException;
import org.jpos.core.SimpleConfiguration;
import org.jpos.iso.ISORequestListener;
import org.jpos.iso.ISOServer;
import org.jpos.iso.channel.PostChannel;
import org.jpos.iso.packager.ISO87APackager;
import org.jpos.util.Logger;
import org.jpos.util.ThreadPool;

/**
 * The ISO 8583 port: a jPOS ISOServer on the address given (127.0.0.1, 0.0.0.0 in a container) with
 * the contract's framing (PostChannel) and packing (ISO87APackager). It can go down for a while
 * (POST /down): every connection closed and new ones refused, then a new server on the same port.
 */
final class IsoEndpoint {
    /** jPOS's log events worth a line: the server's own, and a frame it could not unpack. */
    private static final Set<String> LOGGED = Set.of("iso-server", "ISOException", "session-error");

    private final String bind;
    private final int port;
    private final ISORequestListener listener;
    private final ScheduledExecutorService scheduler;
    private ISOServer server;
    private ScheduledFuture<?> reopening;

    IsoEndpoint(String bind, int port, ISORequestListener listener, ScheduledExecutorService scheduler) {
        this.bind = bind;
        this.port = port;
        this.listener = listener;
        this.scheduler = scheduler;
    }

    @SuppressWarnings("deprecation") // ISOServer in jPOS 2.1 still takes a ThreadPool.
    synchronized void open() throws IOException, ConfigurationException {
        Properties config = new Properties();
        config.setProperty("bind-address", bind);
        // A frame that does not unpack is logged and skipped; the connection's other traffic goes on.
        config.setProperty("ignore-iso-exceptions", "true");
        server = new ISOServer(port, new NoDelayPostChannel(), new ThreadPool(1, 100));
        server.setConfiguration(new SimpleConfiguration(config));
        server.setLogger(logger(), "card-host");
        server.addISORequestListener(listener);
        new Thread(server, "iso-server").start();
    }

    /** Closes every connection and the port, and opens it again {@code ms} later (a second call restarts the wait). */
    synchronized void down(long ms) {
        if (server != null) {
            server.shutdown();
            server = null;
            CardHost.log("down for " + ms + " ms");
        }
        if (reopening != null) reopening.cancel(false);
        reopening = scheduler.schedule(this::reopen, ms, TimeUnit.MILLISECONDS);
    }

    private synchronized void reopen() {
        try {
            open();
            CardHost.log("up again");
        } catch (IOException | ConfigurationException e) {
            CardHost.log("could not reopen: " + e);
        }
    }

    private static Logger logger() {
        Logger logger = new Logger();
        logger.addListener(event -> {
            if (LOGGED.contains(event.getTag())) CardHost.log(event.getTag() + ": " + event.getPayLoad());
            return event;
        });
        return logger;
    }

    /**
     * PostChannel with Nagle's algorithm off, as switches run: jPOS leaves it on, so an answer
     * written while the one before is unacknowledged waits for the acquirer's delayed ACK
     * (40 ms on Linux), which put that wait on every card payment with another in flight.
     */
    static final class NoDelayPostChannel extends PostChannel {
        NoDelayPostChannel() throws IOException {
            super(new ISO87APackager());
        }

        @Override
        protected void connect(Socket socket) throws IOException {
            socket.setTcpNoDelay(true);
            super.connect(socket);
        }
    }
}
