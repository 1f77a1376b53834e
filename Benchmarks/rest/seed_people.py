"""Seeds N people for the check-in and signed-in read benchmarks and writes an access token for each.

Ids are md5('u' || n) as a uuid, so the pgbench baseline scripts can name the same rows;
each person has a session, md5('s' || n), which their token names (the functions refuse a
token whose session does not exist).
Each person gets NOTIFICATIONS (default 5) notifications, one a minute before the seeding,
stored as NotificationStore writes them (created_at as a timestamptz on PostgreSQL, in
Timestamp's text form on SQLite). Tokens are HS256 JWTs signed with the server's
LIFESIGNAL_JWT_SECRET, as /auth/v1 would issue them.
Usage: seed_people.py postgres|sqlite DATABASE COUNT SECRET TOKENS_FILE [NOTIFICATIONS]
"""
import base64, datetime, hashlib, hmac, json, sqlite3, subprocess, sys, time, uuid

# Kinds a person's own history holds, with the wording of the messages.
KINDS = [
    ("check_in_reminder", "Check-in due soon", "Your check-in is due in 30 minutes."),
    ("ping_received", "Ping", "Someone who looks out for you asked how you are."),
    ("contact_added", "New contact", "A responder accepted your invitation."),
    ("system", "Welcome", "Check in on your schedule and the people you choose are told if you miss it."),
    ("check_ins_paused", "Check-ins paused", "Your check-ins are paused until you resume them."),
]


def person_id(n):
    return str(uuid.UUID(hashlib.md5(f"u{n}".encode()).hexdigest()))


def session_id(n):
    return str(uuid.UUID(hashlib.md5(f"s{n}".encode()).hexdigest()))


def token(secret, sub, session, now):
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=")
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": sub, "role": "authenticated", "aud": "authenticated", "iat": now, "exp": now + 7200,
              "session_id": session, "aal": "aal1"}
    body = b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = b64(hmac.new(secret.encode(), header + b"." + body, hashlib.sha256).digest())
    return (header + b"." + body + b"." + signature).decode()


def main():
    engine, database, count, secret, tokens_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    per_person = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())
    kinds = KINDS * (per_person // len(KINDS) + 1)
    if engine == "postgres":
        sql = f"""
        INSERT INTO auth_users (id, phone, phone_confirmed_at, created_at, updated_at)
          SELECT md5('u' || n)::uuid, '1555' || lpad(n::text, 7, '0'), now(), now(), now() FROM generate_series(1, {count}) n;
        INSERT INTO auth_sessions (id, user_id, created_at)
          SELECT md5('s' || n)::uuid, md5('u' || n)::uuid, now() FROM generate_series(1, {count}) n;
        INSERT INTO users (id, phone, qr_code_id, created_at, updated_at)
          SELECT md5('u' || n)::uuid, '+1555' || lpad(n::text, 7, '0'), md5('q' || n)::uuid, now(), now() FROM generate_series(1, {count}) n;
        INSERT INTO notifications (user_id, type, title, body, is_read, created_at)
          SELECT md5('u' || n)::uuid, kind.type, kind.title, kind.body, false, now() - k * interval '1 minute'
          FROM generate_series(1, {count}) n,
               (VALUES {", ".join(f"({k}, '{t}', '{ti}', '{b}')" for k, (t, ti, b) in enumerate(kinds[:per_person], 1))})
               AS kind(k, type, title, body);
        ANALYZE users;
        ANALYZE notifications;
        """
        subprocess.run(["psql", database, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True)
    else:
        db = sqlite3.connect(database, timeout=30)
        rows = [(person_id(n), f"1555{n:07d}", str(uuid.UUID(hashlib.md5(f'q{n}'.encode()).hexdigest()))) for n in range(1, count + 1)]
        db.executemany("INSERT INTO auth_users (id, phone, phone_confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                       [(i, p, stamp, stamp, stamp) for i, p, _ in rows])
        db.executemany("INSERT INTO auth_sessions (id, user_id, created_at) VALUES (?, ?, ?)",
                       [(session_id(n), person_id(n), stamp) for n in range(1, count + 1)])
        db.executemany("INSERT INTO users (id, phone, qr_code_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                       [(i, "+" + p, q, stamp, stamp) for i, p, q in rows])
        now = datetime.datetime.now(datetime.timezone.utc)
        times = [(now - datetime.timedelta(minutes=k)).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00") for k in range(1, per_person + 1)]
        db.executemany("INSERT INTO notifications (id, user_id, type, title, body, is_read, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)",
                       ((str(uuid.uuid4()), i, t, ti, b, times[k]) for i, _, _ in rows for k, (t, ti, b) in enumerate(kinds[:per_person])))
        db.commit()
        db.execute("ANALYZE")
        db.commit()
    now = int(time.time())
    with open(tokens_file, "w") as out:
        for n in range(1, count + 1):
            out.write(token(secret, person_id(n), session_id(n), now) + "\n")


if __name__ == "__main__":
    main()
