// The image's HEALTHCHECK: exits 0 when the app in this container answers /health/live.
// PORT when set, else the app's own default port.
const defaultPorts = {
  'checkout-gateway': 3000,
  'card-processor': 3001,
  'pos-ingest': 3002,
  'outlet-service': 3003,
  'webhook-dispatcher': 3004,
};
const port = process.env.PORT || defaultPorts[process.env.APP];

fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(2500) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
