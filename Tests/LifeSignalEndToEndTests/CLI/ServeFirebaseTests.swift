import Foundation
import LifeSignalTestSupport
import Testing

/// `lifesignal serve` with a Firebase project configured, as an operator starts it: the
/// settings reach the banner, and a Firebase ID token signed by the keys at the configured URL
/// calls a function on the real process.
@Suite("lifesignal serve: Firebase ID tokens")
struct ServeFirebaseTests {
    @Test("the project from the environment and the key URL from the flag are in force and on the banner; bad ones are refused")
    func firebaseSettings() async throws {
        let key = try FirebaseSigningKey.fixedA()
        let keys = try await FirebaseKeyServer.start(publishing: [key])
        defer { Task { await keys.stop() } }
        let off = try await ServeCommandTests.banner([])
        #expect(ServeCommandTests.value("firebase:", in: off.text) == "off (set --firebase-project-id to accept Firebase ID tokens)")

        let serve = try await ServeProcess(
            ["--firebase-keys-url", keys.url.absoluteString],
            environment: ["LIFESIGNAL_FIREBASE_PROJECT_ID": "lifesignal-standin"])
        defer { Task { await serve.stop() } }
        #expect(serve.value("firebase:") == "ID tokens of project lifesignal-standin, keys from \(keys.url.absoluteString)")
        // The process reads the real clock, so the token is issued now.
        let token = try key.sign(FirebaseTokenIssuer(projectID: "lifesignal-standin").claims(uid: "serve-uid", now: Date()))
        let (status, body) = try await serve.post("/functions/v1/check-in", bearer: token, [:])
        #expect(status == 200, "\(body)")
        #expect(body["success"] as? Bool == true)
        let (refused, _) = try await serve.post(
            "/functions/v1/check-in",
            bearer: try key.sign(
                FirebaseTokenIssuer(projectID: "another-project").claims(uid: "serve-uid", now: Date())), [:])
        #expect(refused == 401)

        for bad in [["--firebase-project-id", "Not A Project"], ["--firebase-project-id", "p", "--firebase-keys-url", "ftp://keys"]] {
            let refusedStart = try await ServeCommandTests.banner(bad)
            #expect(refusedStart.status != 0, "\(bad) must be refused")
            #expect(!refusedStart.text.contains("LifeSignal is listening"), "\(bad) must not start the server")
        }
    }
}
