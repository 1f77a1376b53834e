#!/usr/bin/env python3
"""supabase-py's email confirmation against a `lifesignal serve` that sends mail.

The test (EmailConfirmationServeTests) runs this script once per step, reading the codes from
the mail a real SMTP server (aiosmtpd) received between steps:

  signup  --email E --password P            sign_up answers a user and no session; signing in
                                            is refused email_not_confirmed
  verify  --email E --password P --code C   verify_otp(type signup) opens a session, the
                                            password signs in, update_user asks to move to
                                            --new-email (the answer names it as new_email)
  change  --email E --password P --new-email N --code C
                                            before the code the old address still signs in and
                                            the new one does not; verify_otp(type email_change)
                                            moves the account, which then signs in at N

Each step prints `OK <what>` lines (and `user <id>`); a failure prints `FAIL <what>: <why>`
to stderr and exits 1. Configuration: --url and --anon-key (what `serve` prints).
"""

from __future__ import annotations

import argparse
import sys

from supabase import create_client
from supabase_auth.errors import AuthApiError


def fail(what: str, why: object) -> None:
    print(f"FAIL {what}: {why}", file=sys.stderr)
    sys.exit(1)


def refused(client, email: str, password: str) -> str | None:
    """The error code a password sign-in is refused with, or None when it succeeds."""
    try:
        client.auth.sign_in_with_password({"email": email, "password": password})
    except AuthApiError as error:
        return error.code or str(error)
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["signup", "verify", "change"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--anon-key", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--new-email")
    parser.add_argument("--code")
    args = parser.parse_args()
    client = create_client(args.url, args.anon_key)

    if args.step == "signup":
        response = client.auth.sign_up({"email": args.email, "password": args.password})
        if response.session is not None:
            fail("sign_up", "a session was answered before the address was confirmed")
        if response.user is None or response.user.email != args.email:
            fail("sign_up", f"no user for {args.email}: {response}")
        print(f"user {response.user.id}")
        print("OK sign_up without a session")
        code = refused(client, args.email, args.password)
        if code != "email_not_confirmed":
            fail("sign-in before confirming", f"expected email_not_confirmed, got {code}")
        print("OK sign-in refused email_not_confirmed")

    elif args.step == "verify":
        response = client.auth.verify_otp({"email": args.email, "token": args.code, "type": "signup"})
        if response.session is None or not response.session.access_token:
            fail("verify_otp signup", f"no session: {response}")
        if response.user is None or response.user.email_confirmed_at is None:
            fail("verify_otp signup", "the user is not marked confirmed")
        print(f"user {response.user.id}")
        print("OK verify_otp signup")
        if refused(client, args.email, args.password) is not None:
            fail("sign-in after confirming", "refused")
        print("OK sign-in after confirming")
        if args.new_email:
            changed = client.auth.update_user({"email": args.new_email})
            if changed.user is None or changed.user.email != args.email or changed.user.new_email != args.new_email:
                fail("update_user email", f"expected email {args.email} and new_email {args.new_email}: {changed.user}")
            print("OK update_user waits for the new address")

    elif args.step == "change":
        if refused(client, args.email, args.password) is not None:
            fail("old address before the code", "refused")
        if refused(client, args.new_email, args.password) is None:
            fail("new address before the code", "signed in")
        print("OK the account keeps its old address until the code")
        response = client.auth.verify_otp({"email": args.new_email, "token": args.code, "type": "email_change"})
        if response.session is None or response.user is None or response.user.email != args.new_email:
            fail("verify_otp email_change", f"{response}")
        print("OK verify_otp email_change")
        if refused(client, args.new_email, args.password) is not None:
            fail("new address after the code", "refused")
        if refused(client, args.email, args.password) is None:
            fail("old address after the code", "still signs in")
        print("OK the account moved")


if __name__ == "__main__":
    main()
