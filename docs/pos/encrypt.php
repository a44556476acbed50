<?php
// Encrypts a POS payload for POST /pos (PHP with the bundled openssl extension).
//   php encrypt.php <pos-key> '<payload JSON>'
function encryptPosPayload(string $payloadJson, string $key): string
{
    $keyBytes = str_pad(substr($key, 0, 16), 16, "\0"); // exactly 16 bytes
    // OPENSSL_RAW_DATA: raw ciphertext; openssl adds the PKCS#7 padding itself.
    return base64_encode(openssl_encrypt($payloadJson, 'aes-128-ecb', $keyBytes, OPENSSL_RAW_DATA));
}

echo encryptPosPayload($argv[2], $argv[1]), "\n";
