"""Seeds N people for the check-in benchmark and writes an access token for each.

Ids are md5('u' || n) as a uuid, so the pgbench baseline script can name the same rows.
Tokens are HS256 JWTs signed with the server's LIFESIGNAL_JWT_SECRET, as /auth/v1 would
issue them. Usage: seed_people.py postgres|sqlite DATABASE COUNT SECRET TOKENS_FILE
"""
import base64, hashlib, hmac, json, sqlite3, subprocess, sys, time, uuid


def person_id(n):
    return str(uuid.UUID(hashlib.md5(f"u{n}".encode()).hexdigest()))


def token(secret, sub, now):
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=")
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": sub, "role": "authenticated", "aud": "authenticated", "iat": now, "exp": now + 7200,
              "session_id": str(uuid.uuid4()), "aal": "aal1"}
    body = b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = b64(hmac.new(secret.encode(), header + b"." + body, hashlib.sha256).digest())
    return (header + b"." + body + b"." + signature).decode()


def main():
    engine, database, count, secret, tokens_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())
    if engine == "postgres":
        sql = f"""
        INSERT INTO auth_users (id, phone, phone_confirmed_at, created_at, updated_at)
          SELECT md5('u' || n)::uuid, '1555' || lpad(n::text, 7, '0'), now(), now(), now() FROM generate_series(1, {count}) n;
        INSERT INTO users (id, phone, qr_code_id, created_at, updated_at)
          SELECT md5('u' || n)::uuid, '+1555' || lpad(n::text, 7, '0'), md5('q' || n)::uuid, now(), now() FROM generate_series(1, {count}) n;
        ANALYZE users;
        """
        subprocess.run(["psql", database, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True)
    else:
        db = sqlite3.connect(database, timeout=30)
        rows = [(person_id(n), f"1555{n:07d}", str(uuid.UUID(hashlib.md5(f'q{n}'.encode()).hexdigest()))) for n in range(1, count + 1)]
        db.executemany("INSERT INTO auth_users (id, phone, phone_confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                       [(i, p, stamp, stamp, stamp) for i, p, _ in rows])
        db.executemany("INSERT INTO users (id, phone, qr_code_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                       [(i, "+" + p, q, stamp, stamp) for i, p, q in rows])
        db.commit()
    now = int(time.time())
    with open(tokens_file, "w") as out:
        for n in range(1, count + 1):
            out.write(token(secret, person_id(n), now) + "\n")


if __name__ == "__main__":
    main()
