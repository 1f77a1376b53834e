"""A stand-in for hCaptcha's and Cloudflare Turnstile's `siteverify`, for LifeSignal's captcha tests.

    python captcha_standin.py SECRET

Serves `POST …/siteverify` on 127.0.0.1 as both providers do: a form body (`secret`, `response`,
optional `remoteip`), answered 200 with `{"success": true, "hostname": …}` only for the right
secret and a token that starts with `pass-` and was not verified before (tokens are single-use),
else `{"success": false, "error-codes": [...]}`: `missing-input-secret`, `invalid-input-secret`,
`missing-input-response`, `invalid-input-response`, `timeout-or-duplicate`. A wrong secret does not
use the token up. Some tokens misbehave on purpose: `fail-500` is answered 500 with a text body
that echoes the form (the secret too, as a careless proxy might), `fail-garbage` 200 with a body
that is not JSON, `fail-nosuccess` 200 with JSON that has no boolean `success`. Prints
`READY <port>`, then one JSON line per request: the path, the content type, whether the secret
was right (`"secret": "right" | "wrong" | "missing"`), the form fields other than the secret, and
the answer's status and error codes. Runs until stdin closes.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

SECRET = sys.argv[1]
HOSTNAME = "lifesignal.test"
used = set()
lock = threading.Lock()


def record(line):
    """One JSON line, whole: the server answers on several threads, and two prints at once
    would interleave their text and newlines."""
    with lock:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def verdict(secret, token):
    """The answer's status and body for a form's secret and token."""
    if token == "fail-500":
        return 500, None
    if token == "fail-garbage":
        return 200, b"<html>not json</html>"
    if token == "fail-nosuccess":
        return 200, {"error-codes": []}
    if secret is None:
        return 200, {"success": False, "error-codes": ["missing-input-secret"]}
    if secret != SECRET:
        return 200, {"success": False, "error-codes": ["invalid-input-secret"]}
    if not token:
        return 200, {"success": False, "error-codes": ["missing-input-response"]}
    if not token.startswith("pass-"):
        return 200, {"success": False, "error-codes": ["invalid-input-response"]}
    with lock:
        duplicate = token in used
        used.add(token)
    if duplicate:
        return 200, {"success": False, "error-codes": ["timeout-or-duplicate"]}
    return 200, {"success": True, "error-codes": [], "hostname": HOSTNAME, "challenge_ts": "2024-01-01T00:00:00Z"}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, data, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send(405, b"Method Not Allowed", "text/plain")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length).decode("utf-8", "replace")
        fields = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        secret = fields.pop("secret", None)
        token = fields.get("response", "")
        line = {"path": self.path, "content_type": self.headers.get("Content-Type"),
                "secret": "missing" if secret is None else "right" if secret == SECRET else "wrong", "fields": fields}
        if not self.path.split("?")[0].endswith("/siteverify"):
            record(dict(line, status=404))
            return self.send(404, b"Not Found", "text/plain")
        status, body = verdict(secret, token)
        record(dict(line, status=status, success=isinstance(body, dict) and body.get("success") is True,
                    error_codes=body.get("error-codes", []) if isinstance(body, dict) else []))
        if body is None:
            self.send(status, ("upstream failed for " + raw).encode(), "text/plain")
        elif isinstance(body, bytes):
            self.send(status, body, "text/html")
        else:
            self.send(status, json.dumps(body).encode(), "application/json")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("READY %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
