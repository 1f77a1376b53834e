"""A stand-in for a Web Push service (RFC 8030), for LifeSignal's Web Push client tests.

    python webpush_standin.py UA_PRIVATE_KEY AUTH_SECRET

UA_PRIVATE_KEY is the subscribing browser's P-256 private key (the 32-byte scalar, base64url)
and AUTH_SECRET its 16-byte `auth` secret (base64url): the test plays the browser, so the
stand-in can read what is sent to it. Serves `POST /push/<id>` on plain HTTP on 127.0.0.1 and
checks each message independently of the client under test:

- the `Authorization: vapid t=<JWT>, k=<key>` header (RFC 8292) with `py_vapid`, which verifies
  the ES256 signature (raw r||s) with `cryptography` against the key `k`; the JWT header must say
  `ES256`, `aud` must be this stand-in's origin (`http://127.0.0.1:<port>`), `exp` an integer
  in the future and at most 24 hours ahead, `sub` a `mailto:` or `https:` contact;
- the body with `http_ece` (`aes128gcm`, RFC 8188/8291), decrypted with the browser's private
  key and auth secret; and the header's record size and key id as RFC 8291 writes them.

Answers as a push service does: 201 with `Location: /message/<uuid>` and the `TTL` it kept; 401
without VAPID, 403 with a VAPID token that does not verify, 400 for a body it cannot decrypt or
another content coding, 413 for a body over 4096 bytes. Some ids fail on purpose, after the same
checks: `gone` 410, `missing` 404, `busy` 429 with `Retry-After: 7`, `broken` 500, `big` 413.

Prints `READY <port>`, then one JSON line per request: the path, the headers of interest (`TTL`,
`Urgency`, `Topic`, `Content-Encoding`, `Content-Type`), whether VAPID verified (with the
claims, the key `k` and why not), the body's length, salt, record size and key id, the decrypted
plaintext (base64) or why it could not be decrypted, and the status answered. Runs until stdin
closes.
"""
import base64
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt as vapid_jwt

FAILURES = {"gone": 410, "missing": 404, "busy": 429, "broken": 500, "big": 413}
MAXIMUM_BODY = 4096
lock = threading.Lock()
origin = None


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


UA_KEY = ec.derive_private_key(int.from_bytes(b64url_decode(sys.argv[1]), "big"), ec.SECP256R1())
AUTH_SECRET = b64url_decode(sys.argv[2])


def record(line):
    """One JSON line, whole: the server answers on several threads, and two prints at once
    would interleave their text and newlines."""
    with lock:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def check_vapid(authorization, line):
    """Fills `line` with what the VAPID header says; True if it is valid for this origin."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        line["vapid_error"] = "not the vapid scheme: %r" % scheme
        return False
    parameters = {}
    for part in rest.split(","):
        name, _, value = part.strip().partition("=")
        parameters[name.strip()] = value.strip()
    token, key = parameters.get("t"), parameters.get("k")
    line["vapid_k"] = key
    if not token or not key:
        line["vapid_error"] = "t and k are both required"
        return False
    try:
        header = json.loads(b64url_decode(token.split(".")[0]))
        line["vapid_header"] = header
        # py_vapid verifies the ES256 signature (64 raw bytes, r || s) with `cryptography`.
        claims = vapid_jwt.decode(token, key)
    except Exception as error:  # InvalidSignature, or a token that is not a JWT at all
        line["vapid_error"] = "the token does not verify with k: %r" % (error,)
        return False
    line["vapid_claims"] = claims
    now = time.time()
    exp = claims.get("exp")
    sub = claims.get("sub", "")
    if header.get("alg") != "ES256" or header.get("typ", "JWT") != "JWT":
        line["vapid_error"] = "the JWT header is not ES256"
    elif claims.get("aud") != origin:
        line["vapid_error"] = "aud %r is not %r" % (claims.get("aud"), origin)
    elif not isinstance(exp, int) or isinstance(exp, bool) or not now < exp <= now + 24 * 60 * 60:
        line["vapid_error"] = "exp %r is not within the next 24 hours" % (exp,)
    elif not (isinstance(sub, str) and (sub.startswith("mailto:") or sub.startswith("https:"))):
        line["vapid_error"] = "sub %r is not a mailto: or https: contact" % (sub,)
    else:
        return True
    return False


def read_body(body, line):
    """Fills `line` with the body's header and plaintext; True if it decrypted."""
    line["body_length"] = len(body)
    if len(body) >= 21:
        id_length = body[20]
        line["salt"] = b64url(body[:16])
        line["rs"] = int.from_bytes(body[16:20], "big")
        line["idlen"] = id_length
        line["keyid"] = b64url(body[21:21 + id_length])
    try:
        plaintext = http_ece.decrypt(body, private_key=UA_KEY, dh=None, auth_secret=AUTH_SECRET, version="aes128gcm")
    except Exception as error:
        line["decrypt_error"] = repr(error)
        return False
    line["plaintext"] = base64.b64encode(plaintext).decode()
    return True


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, headers=(), text=""):
        data = text.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        line = {
            "path": self.path,
            "ttl": self.headers.get("TTL"),
            "urgency": self.headers.get("Urgency"),
            "topic": self.headers.get("Topic"),
            "content_encoding": self.headers.get("Content-Encoding"),
            "content_type": self.headers.get("Content-Type"),
        }
        authorization = self.headers.get("Authorization")
        line["vapid_verified"] = check_vapid(authorization, line) if authorization else False
        decrypted = read_body(body, line)
        identifier = self.path[len("/push/"):] if self.path.startswith("/push/") else None
        headers = []
        if not identifier:
            status, text = 404, "no such subscription"
        elif not authorization:
            status, text = 401, "VAPID authorization is required"
        elif not line["vapid_verified"]:
            status, text = 403, "VAPID token refused: %s" % line.get("vapid_error")
        elif identifier in FAILURES:
            status, text = FAILURES[identifier], "failing on purpose"
            if identifier == "busy":
                headers.append(("Retry-After", "7"))
        elif len(body) > MAXIMUM_BODY:
            status, text = 413, "payload too large"
        elif line["content_encoding"] != "aes128gcm" or not decrypted:
            status, text = 400, "cannot decrypt: %s" % line.get("decrypt_error")
        elif line["ttl"] is None or not line["ttl"].isdigit():
            status, text = 400, "TTL is required"
        else:
            status = 201
            text = ""
            headers.append(("Location", "/message/%s" % uuid.uuid4().hex))
            headers.append(("TTL", line["ttl"]))
        line["status"] = status
        record(line)
        self.answer(status, headers, text)


def main():
    global origin
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    origin = "http://127.0.0.1:%d" % server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
