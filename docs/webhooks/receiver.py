# A minimal webhook receiver that verifies the signature (Python 3, standard library only).
import hashlib
import hmac
import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

API_KEY = os.environ["PAYMENTS_API_KEY"]  # your x-api-key: keep it on the server


def signature_is_valid(payload: dict) -> bool:
    # The minified JSON of eventData, byte for byte as JavaScript's JSON.stringify writes it.
    minified = json.dumps(payload["eventData"], separators=(",", ":"), ensure_ascii=False)
    expected = hmac.new(API_KEY.encode(), minified.encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, str(payload.get("signature", "")))


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not signature_is_valid(payload):
            self.send_response(401)
            self.end_headers()
            return
        # Retries repeat the event id: record it and skip events you already handled.
        print(json.dumps({"eventId": self.headers["x-event-id"], "event": payload["event"]}), flush=True)
        self.send_response(200)  # answer fast; do the real work after
        self.end_headers()

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Receiver).serve_forever()
