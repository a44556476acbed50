// A minimal webhook receiver that verifies both signatures (Node.js 20+).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks'; // npm install standardwebhooks

const apiKey = process.env.PAYMENTS_API_KEY; // your x-api-key: keep it on the server
const signingSecret = process.env.PAYMENTS_SIGNING_SECRET; // whsec_… from GET /webhooks/endpoint

function signatureIsValid(payload) {
  const expected = createHmac('sha256', apiKey).update(JSON.stringify(payload.eventData)).digest();
  const given = Buffer.from(String(payload.signature ?? ''), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      // Standard Webhooks: rejects forged, altered and replayed (stale timestamp) deliveries.
      new Webhook(signingSecret).verify(body, request.headers);
    } catch {
      response.writeHead(401).end();
      return;
    }
    const payload = JSON.parse(body);
    if (!signatureIsValid(payload)) {
      response.writeHead(401).end();
      return;
    }
    // Retries repeat the event id: record it and skip events you already handled.
    console.log(JSON.stringify({ eventId: request.headers['x-event-id'], event: payload.event }));
    response.writeHead(200).end(); // answer fast; do the real work after
  });
}).listen(Number(process.env.PORT ?? 8000), '127.0.0.1');
