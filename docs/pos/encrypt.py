# Encrypts a POS payload for POST /pos (Python 3 with the "cryptography" package;
# on Debian: apt-get install python3-cryptography).
#   python3 encrypt.py <pos-key> '<payload JSON>'
import base64
import sys

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def encrypt(payload_json: str, key: str) -> str:
    key_bytes = key.encode("utf-8")[:16].ljust(16, b"\0")  # exactly 16 bytes
    padder = padding.PKCS7(128).padder()
    padded = padder.update(payload_json.encode("utf-8")) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key_bytes), modes.ECB()).encryptor()
    return base64.b64encode(encryptor.update(padded) + encryptor.finalize()).decode("ascii")


if __name__ == "__main__":
    print(encrypt(sys.argv[2], sys.argv[1]))
