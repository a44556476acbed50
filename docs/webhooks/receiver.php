<?php
// A minimal webhook receiver that verifies the signature: php -S 127.0.0.1:8000 receiver.php
$apiKey = getenv('PAYMENTS_API_KEY'); // your x-api-key: keep it on the server
$payload = json_decode(file_get_contents('php://input')); // objects, not arrays: {} must stay {}

// The minified JSON of eventData, byte for byte as JavaScript's JSON.stringify writes it.
$minified = json_encode($payload->eventData, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
$expected = hash_hmac('sha256', $minified, $apiKey);
if (!hash_equals($expected, (string) ($payload->signature ?? ''))) {
    http_response_code(401);
    exit;
}
// Retries repeat the event id: record it and skip events you already handled.
file_put_contents('php://stderr', json_encode(['eventId' => $_SERVER['HTTP_X_EVENT_ID'], 'event' => $payload->event]) . "\n");
http_response_code(200); // answer fast; do the real work after
