"""A real SMTP server (aiosmtpd) for LifeSignal's SMTP client tests.

    python smtp_server.py MODE DIR

MODE is `starttls` (STARTTLS required, AUTH required and only over TLS), `plain` (no TLS, no
AUTH: a server that cannot protect a password) or `implicit` (TLS from the first byte, as on
port 465, AUTH required). A self-signed certificate for 127.0.0.1 is written to DIR/cert.pem.
Prints `READY <port>` once listening, then one JSON line per message accepted: the envelope,
whether TLS and AUTH were in force, and the parsed headers and parts. Recipients whose address
starts with `transient` are refused 451, `permanent` 550. Accepts the login
`lifesignal` / `s3cret pass` only. Runs until stdin closes.
"""
import email
import email.policy
import json
import socket
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from standin_certificate import write_self_signed


def certificate(directory):
    cert_path, key_path = write_self_signed(directory)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_path, key_path)
    return context


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"lifesignal" and auth_data.password == b"s3cret pass"
    # handled=False: aiosmtpd then answers 535 itself (handled=True would mean we had replied).
    return AuthResult(success=ok, handled=False)


class Recorder:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("transient"):
            return "451 4.3.0 Try again later"
        if address.startswith("permanent"):
            return "550 5.1.1 No such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            if part.get_content_maintype() == "text":
                parts[part.get_content_subtype()] = part.get_content()
        record = {
            "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
            # session.ssl is set by STARTTLS only; TLS from the first byte shows on the transport.
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "authenticated": bool(session.authenticated),
            "from": str(message["from"]), "to": str(message["to"]), "subject": str(message["subject"]),
            "message_id": str(message["message-id"]), "date": str(message["date"]),
            "content_type": message.get_content_type(), "text": parts.get("plain"), "html": parts.get("html"),
            "raw_ascii": all(byte < 128 for byte in envelope.original_content),
        }
        print(json.dumps(record), flush=True)
        return "250 2.0.0 Ok: queued as LS%d" % (id(envelope) % 100000)


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    context = certificate(directory)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = {}
    if mode == "starttls":
        options = dict(tls_context=context, require_starttls=True, auth_required=True, auth_require_tls=True,
                       authenticator=authenticate)
    elif mode == "implicit":
        # The whole connection is TLS; aiosmtpd's auth_require_tls counts only STARTTLS.
        options = dict(ssl_context=context, auth_required=True, auth_require_tls=False, authenticator=authenticate)
    controller = Controller(Recorder(), hostname="127.0.0.1", port=port, server_hostname="127.0.0.1", **options)
    controller.start()
    print("READY %d" % port, flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()
