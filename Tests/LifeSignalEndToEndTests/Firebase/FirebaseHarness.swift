import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport

/// The Firebase side of ``AdapterHarness``: Alice and Bob signed in through Identity Toolkit
/// and calling functions as Firebase callables, all answered by ``FirebaseReplayTransport``
/// over the test backend.
extension AdapterHarness {
    static let firebaseFunctionsURL = URL(string: "https://us-central1-lifesignal-replay.cloudfunctions.net") ?? URL(fileURLWithPath: "/")

    /// Firebase adapters talking to `backend` through the replay transport. Streams poll
    /// every 100 ms so the contract tests' 10 s waits are never close. Storage is the replayed
    /// project bucket.
    static func firebaseAdapters(_ backend: LifeSignalBackend, timeout: Duration = .seconds(30)) -> FirebaseAdapters {
        firebaseAdapters(transport: FirebaseReplayTransport(backend: backend), timeout: timeout)
    }

    /// Firebase adapters over any transport (the error-mapping tests script failures).
    static func firebaseAdapters(transport: any FirebaseHTTPTransport, timeout: Duration = .seconds(30)) -> FirebaseAdapters {
        let options = FirebaseHTTPOptions(transport: transport, timeout: timeout)
        return FirebaseAdapters(
            identityToolkit: IdentityToolkitClient(apiKey: "replay-api-key", options: options), functionsURL: firebaseFunctionsURL,
            storageBucket: FirebaseReplayTransport.bucket, options: options, pollInterval: .milliseconds(100),
            firestoreProjectID: "lifesignal-replay")
    }

    static func startFirebase(_ test: TestBackend) async throws -> AdapterHarness {
        let alice = try await firebase(test, phone: alicePhone, code: "111111")
        let bob = try await firebase(test, phone: bobPhone, code: "222222")
        let visitor = firebaseAdapters(test.backend)
        return AdapterHarness(
            test: test, server: nil, alice: alice.content, bob: bob.content, visitor: visitor.contentClient, aliceID: alice.id, bobID: bob.id,
            aliceContacts: alice.contacts, bobContacts: bob.contacts, visitorContacts: visitor.contactsClient,
            aliceClients: alice, bobClients: bob)
    }

    private static func firebase(_ test: TestBackend, phone: String, code: String) async throws -> Person {
        let adapters = firebaseAdapters(test.backend)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        try await makeEditor(test, session.userID)
        return Person(
            id: session.userID.rawValue, content: adapters.contentClient, contacts: adapters.contactsClient,
            alerts: adapters.alertClient, pings: adapters.pingClient, checkIns: adapters.checkInClient,
            notifications: adapters.notificationClient, user: adapters.userClient, auth: adapters.authClient,
            functions: adapters.cloudFunctionClient, files: adapters.fileStorageClient)
    }
}
