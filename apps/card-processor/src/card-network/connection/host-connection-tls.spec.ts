import { connectorTo, eventually, FakeHost, paymentRequest } from '../testing/fake-host';
import { HostConnector } from './host-connector';

// A self-signed certificate for card-host.test (until 2126) and its key: test-only, they protect nothing.
const cert = `-----BEGIN CERTIFICATE-----
MIIBozCCAUqgAwIBAgIUbYLk9X5BIqdNRMgBA+8E5R08xMowCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOY2FyZC1ob3N0LnRlc3QwIBcNMjYxMTI5MDc0NTMwWhgPMjEy
NjExMDUwNzQ1MzBaMBkxFzAVBgNVBAMMDmNhcmQtaG9zdC50ZXN0MFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEzyNpGax18cI/qujrcvZbNbVoblLdlyXag7IZWrwc
P9pDxgd+z4KHsCsFf8P8KtM4VFX974GoVgg8075DgM9zJ6NuMGwwHQYDVR0OBBYE
FFAgXpWKzQtvzeX9t2ZIoDAgAwGrMB8GA1UdIwQYMBaAFFAgXpWKzQtvzeX9t2ZI
oDAgAwGrMA8GA1UdEwEB/wQFMAMBAf8wGQYDVR0RBBIwEIIOY2FyZC1ob3N0LnRl
c3QwCgYIKoZIzj0EAwIDRwAwRAIgIRZ1bRP460pXAtpOnPREADckM1LgQhx6tp7s
YUi2n7sCIEpCt+L55h+gfurJ2BFo/wmSraimXV14eHIWuUczJ+6L
-----END CERTIFICATE-----
`;
const key = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPYVtUMgv5EUuYdpa
0muCwKJw+FevzGUPYGklutuIoW6hRANCAATPI2kZrHXxwj+q6Oty9ls1tWhuUt2X
JdqDshlavBw/2kPGB37PgoewKwV/w/wq0zhUVf3vgahWCDzTvkOAz3Mn
-----END PRIVATE KEY-----
`;

describe('a connection to the host over TLS', () => {
  let host: FakeHost;
  let connector: HostConnector | undefined;

  beforeEach(async () => {
    host = await FakeHost.listen({ key, cert });
    connector = undefined;
  });

  afterEach(async () => {
    await connector?.close();
    await host.stop();
  });

  it('signs on and exchanges messages once the host proves the name its CA certified', async () => {
    ({ connector } = connectorTo(host, { tls: { ca: cert, servername: 'card-host.test' } }));

    await eventually(() => connector!.state().ready === 2);
    await expect(connector.exchange(paymentRequest(1))).resolves.toMatchObject({ mti: '0210' });
  });

  it('never signs on to a host whose certificate does not carry the expected name', async () => {
    const started = connectorTo(host, { connections: 1, tls: { ca: cert, servername: 'other-host.test' } });
    connector = started.connector;

    await eventually(() => started.logger.fieldsOf('reconnecting to the host').length >= 2);
    expect(connector.state().ready).toBe(0);
    expect(host.connections.every((connection) => connection.received.length === 0)).toBe(true);
    expect(started.logger.fieldsOf('host socket error')).toContainEqual(
      expect.objectContaining({ err: expect.stringContaining("Host: other-host.test. is not in the cert's altnames") }),
    );
  });
});
