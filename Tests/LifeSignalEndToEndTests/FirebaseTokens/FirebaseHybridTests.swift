import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// Seed 001's hybrid with a real Firebase ID token: a person signs in with Firebase (the
/// FirebaseREST Identity Toolkit client against the Firebase stand-in, which signs the token
/// with the keys it publishes), and the app calls this server's functions and tables with that
/// token through the Supabase client.
@Suite("Seed 001 hybrid: Firebase sign-in, Supabase functions")
struct FirebaseHybridTests {
    @Test("a Firebase phone sign-in's ID token calls functions and reads rows as one LifeSignal person", arguments: Engine.allCases)
    func hybrid(engine: Engine) async throws {
        let phone = "+15550009001"
        let firebase = try await FirebaseFixture.make(engine)
        let server = try await TestServer.start(firebase.test.backend)
        defer {
            Task {
                await server.stop()
                await firebase.keyServer.stop()
            }
        }
        let clock = firebase.test.clock
        firebase.keyServer.enableSignIn(issuer: firebase.issuer, now: { clock.now }, codes: [phone: "123456"])

        // Firebase for sign-in.
        let identity = try IdentityToolkitClient.emulator(host: "127.0.0.1", port: firebase.keyServer.port)
        let sessionInfo = try await identity.sendVerificationCode(PhoneVerificationRequest(phoneNumber: phone))
        let signedIn = try await identity.signInWithPhoneNumber(sessionInfo: sessionInfo, code: "123456")
        #expect(signedIn.localId == FirebaseKeyServer.uid(forPhone: phone))
        await #expect(throws: (any Error).self) { try await identity.signInWithPhoneNumber(sessionInfo: sessionInfo, code: "000000") }

        // Supabase for functions and data, with the Firebase ID token as the bearer.
        let supabase = SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage())))
        let bearer = FunctionInvokeOptions(headers: ["Authorization": "Bearer \(signedIn.idToken)"])
        struct CheckIn: Decodable { var success: Bool }
        let checkIn: CheckIn = try await supabase.functions.invoke("check-in", options: bearer)
        #expect(checkIn.success)
        let anonymous = await #expect(throws: (any Error).self) { try await supabase.functions.invoke("check-in") }
        #expect(anonymous != nil, "without the Firebase token the function refuses")

        // The person the server linked to the uid holds the check-in and the verified number.
        let linked = try await firebase.test.backend.database.query(
            """
            SELECT u.phone, c.user_id FROM auth_identities i JOIN users u ON u.id = i.user_id JOIN check_ins c ON c.user_id = i.user_id
            WHERE i.subject = \(signedIn.localId)
            """)
        #expect(linked.count == 1)
        #expect(try linked.first?.string("phone") == phone)

        // A second sign-in later is the same person: the check-in history is theirs.
        clock.advance(by: 600)
        let again = try await identity.signInWithPhoneNumber(sessionInfo: sessionInfo, code: "123456")
        let history = try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: again.idToken)
        #expect(history.status == 200)
        #expect(history.jsonArray?.count == 1)
        #expect(try await firebase.count("auth_users") == 1)
    }
}
