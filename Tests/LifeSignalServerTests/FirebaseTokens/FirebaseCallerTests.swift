import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// Firebase ID tokens as bearers of the server's APIs, over real sockets: the server checks
/// them through `AuthService.authenticate` like its own tokens (seed 001's hybrid: Firebase
/// for sign-in, this server for data and functions).
@Suite("Firebase ID tokens over HTTP")
struct FirebaseCallerTests {
    /// The LifeSignal user id a Firebase bearer stands for, read as that caller reads its own row.
    static func ownID(_ server: TestServer, _ token: String) async throws -> String {
        let reply = try await server.request("GET", "/rest/v1/users?select=id", bearer: token)
        #expect(reply.status == 200, "\(reply.text)")
        let rows = try #require(reply.jsonArray)
        #expect(rows.count == 1, "a person reads only their own row")
        return try #require(rows.first?["id"] as? String)
    }

    @Test("REST, functions and storage work as the linked user, and row policies apply", arguments: Engine.allCases)
    func apis(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        let server = try await TestServer.start(firebase.test.backend)
        defer {
            Task {
                await server.stop()
                await firebase.keyServer.stop()
            }
        }
        let ada = try firebase.token("firebase-ada", phone: "+15550008001")
        let ben = try firebase.token("firebase-ben")

        let adaID = try await Self.ownID(server, ada)
        #expect(try await Self.ownID(server, ada) == adaID, "the second use is the same person")
        let benID = try await Self.ownID(server, ben)
        #expect(adaID != benID)
        #expect(try await firebase.count("auth_users") == 2)

        // Functions: a check-in is recorded for the linked account.
        let checkIn = try await server.request("POST", "/functions/v1/check-in", bearer: ada)
        #expect(checkIn.status == 200, "\(checkIn.text)")
        let own = try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: ada)
        #expect((own.jsonArray ?? []).map { $0["user_id"] as? String } == [adaID])
        // Row policies: Ben reads none of Ada's rows, and cannot ask for her profile by id.
        let theirs = try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: ben)
        #expect(theirs.status == 200)
        #expect(theirs.jsonArray?.isEmpty == true)
        let peek = try await server.request("GET", "/rest/v1/users?select=id&id=eq.\(adaID)", bearer: ben)
        #expect(peek.jsonArray?.isEmpty == true)

        // Storage: Ada uploads her avatar under her own folder, not under Ben's.
        let png = TestImages.png(width: 8, height: 8)
        let upload = try await server.request(
            "POST", "/storage/v1/object/avatars/\(adaID)/avatar.png", bearer: ada,
            headers: ["Content-Type": "image/png"], body: png)
        #expect(upload.status == 200, "\(upload.text)")
        let intrude = try await server.request(
            "POST", "/storage/v1/object/avatars/\(benID)/avatar.png", bearer: ada,
            headers: ["Content-Type": "image/png"], body: png)
        #expect(intrude.status == 403)
    }

    @Test("a refused Firebase token is 401 on every API and makes no account; LifeSignal's tokens still work", arguments: [Engine.sqlite])
    func refusals(engine: Engine) async throws {
        // The hanging key server below is given up on after 2 s; under load the first, real
        // fetch may be given up on too, and then these tokens are refused all the same.
        let firebase = try await FirebaseFixture.make(engine, fetchTimeout: .seconds(2))
        let server = try await TestServer.start(firebase.test.backend)
        defer {
            Task {
                await server.stop()
                await firebase.keyServer.stop()
            }
        }
        let now = Int(firebase.now.timeIntervalSince1970)
        let expired = try firebase.token("late") { $0["exp"] = now - 3600 }
        let wrongProject = try firebase.token("elsewhere") { $0["aud"] = "another-project" }
        let unknownKey = try FirebaseSigningKey.generated(kid: "key-unpublished").sign(firebase.issuer.claims(uid: "forger", now: firebase.now))
        for token in [expired, wrongProject, unknownKey] {
            #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: token).status == 401)
            #expect(try await server.request("POST", "/functions/v1/check-in", bearer: token).status == 401)
            let upload = try await server.request(
                "POST", "/storage/v1/object/avatars/x/avatar.png", bearer: token,
                headers: ["Content-Type": "image/png"], body: TestImages.png(width: 8, height: 8))
            #expect(upload.status == 401)
        }
        #expect(try await firebase.count("auth_users") == 0)

        // The key server hangs: Firebase tokens are refused within a bound, own tokens are served.
        firebase.test.clock.advance(by: 11)
        firebase.keyServer.set(.hanging)
        let rotated = try firebase.token("new-key", key: firebase.keyB)
        let started = ContinuousClock.now
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: rotated).status == 401)
        #expect(ContinuousClock.now - started < .seconds(60), "a bound against a hang, not a speed check")
        let session = try await firebase.test.signIn("+15550008002")
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: session.accessToken).status == 200)
        #expect(try await firebase.count("auth_users") == 1)
    }

    @Test("Realtime: a Firebase bearer joins and receives its own changes only", arguments: [Engine.sqlite])
    func realtime(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        let server = try await TestServer.start(firebase.test.backend)
        defer {
            Task {
                await server.stop()
                await firebase.keyServer.stop()
            }
        }
        let ada = try firebase.token("firebase-ada")
        let ben = try firebase.token("firebase-ben")
        let adaID = try await Self.ownID(server, ada)
        let benID = try await Self.ownID(server, ben)

        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        defer { Task { await socket.close() } }
        let reply = try await RealtimeTests.join(socket, table: "notifications", token: ada)
        #expect(reply["status"] as? String == "ok", "\(reply)")
        _ = try await socket.nextObject(where: { $0["event"] as? String == "system" })

        for (owner, title) in [(benID, "for ben"), (adaID, "for ada")] {
            let row: [String: any Sendable] = [
                "user_id": owner, "type": "system", "title": title, "body": "b",
                "created_at": Timestamp.format(firebase.now),
            ]
            let inserted = try await server.request(
                "POST", "/rest/v1/notifications", apiKey: .some(server.serviceKey), bearer: server.serviceKey,
                body: try JSONSerialization.data(withJSONObject: row))
            #expect(inserted.status == 201)
        }
        let change = try await RealtimeTests.nextChange(socket)
        let record = try #require(change.data["record"] as? [String: any Sendable])
        #expect(record["title"] as? String == "for ada", "Ben's row was not sent to Ada")
        #expect(record["user_id"] as? String == adaID)
    }
}
