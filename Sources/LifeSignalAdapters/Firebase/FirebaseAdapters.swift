import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// Clients filled over Firebase's wire protocols: phone sign-in through Identity Toolkit,
/// the original app's Firestore documents (the profile `users/{uid}`, the contacts
/// `users/{uid}/contacts`, QR codes `qr_lookup`) and arbitrary documents over Firestore's
/// REST API, everything else through callable functions named as LifeSignal's backend
/// functions.
///
/// The functions take and return the same JSON as on Supabase (one definition of the shapes,
/// in `LifeSignalBackend`); what Supabase clients read from other tables (notifications,
/// history) comes from the read-only functions, because a Firebase client has no PostgREST.
/// Nothing is realtime over Firebase REST, so the streams poll.
public struct FirebaseAdapters: Sendable {
    public let identityToolkit: IdentityToolkitClient
    public let functions: CallableFunctionsClient
    /// The Firebase tokens, refreshed before they expire; the functions client asks it for
    /// the ID token of every call.
    public let tokens: FirebaseAuthSession
    /// The signed-in person as the domain sees them (with the phone number), told to
    /// whoever follows ``AuthClient/sessionChanges``.
    public let sessions: SessionStore
    /// Where avatars go, or `nil` when the project has no Storage bucket configured (then
    /// avatars are refused rather than lost).
    public let storage: FirebaseStorageClient?
    /// Documents (``DocumentsClient``), or `nil` when no project id was given for Firestore
    /// (then documents are refused rather than lost).
    public let firestore: FirestoreClient?
    /// How often the notification and profile streams ask for news.
    public let pollInterval: Duration
    let verifications: PendingVerifications

    /// Creates adapters for functions at `functionsURL` (production
    /// `https://<region>-<project>.cloudfunctions.net`, or the emulator's), with every
    /// request going through `options.transport`.
    public init(
        identityToolkit: IdentityToolkitClient, functionsURL: URL, storageBucket: String? = nil,
        storageURL: URL = FirebaseStorageClient.productionURL, options: FirebaseHTTPOptions = FirebaseHTTPOptions(),
        sessions: SessionStore = SessionStore(), pollInterval: Duration = .seconds(3),
        firestoreProjectID: String? = nil, firestoreURL: URL = FirestoreClient.productionURL
    ) {
        let tokens = FirebaseAuthSession(client: identityToolkit)
        self.firestore = firestoreProjectID.map { FirestoreClient(projectID: $0, baseURL: firestoreURL, tokenProvider: tokens, options: options) }
        self.identityToolkit = identityToolkit
        self.tokens = tokens
        self.functions = CallableFunctionsClient(baseURL: functionsURL, tokenProvider: tokens, options: options)
        self.storage = storageBucket.map { FirebaseStorageClient(bucket: $0, baseURL: storageURL, tokenProvider: tokens, options: options) }
        self.sessions = sessions
        self.pollInterval = pollInterval
        self.verifications = PendingVerifications()
    }

    /// Creates adapters for the production endpoints of `projectID`; `storageBucket` is
    /// `<project>.firebasestorage.app` (or `.appspot.com` for older projects).
    public init(
        apiKey: String, projectID: String, region: String = "us-central1", storageBucket: String? = nil,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions(), sessions: SessionStore = SessionStore(), pollInterval: Duration = .seconds(3)
    ) throws {
        guard let url = URL(string: "https://\(region)-\(projectID).cloudfunctions.net") else {
            throw DomainError.invalidArgument("\"\(region)-\(projectID)\" does not make a functions URL")
        }
        self.init(
            identityToolkit: IdentityToolkitClient(apiKey: apiKey, options: options), functionsURL: url, storageBucket: storageBucket,
            options: options, sessions: sessions, pollInterval: pollInterval, firestoreProjectID: projectID)
    }

    /// Adapters for the Firebase Local Emulator Suite (default ports: Auth 9099, Functions
    /// 5001, Storage 9199, Firestore 8080), where phone codes are readable from the emulator
    /// instead of SMS.
    public static func emulator(
        host: String = "127.0.0.1", authPort: Int = 9099, functionsPort: Int = 5001, storagePort: Int = 9199, firestorePort: Int = 8080,
        projectID: String, region: String = "us-central1", options: FirebaseHTTPOptions = FirebaseHTTPOptions(),
        sessions: SessionStore = SessionStore(), pollInterval: Duration = .seconds(3)
    ) throws -> FirebaseAdapters {
        guard let functions = URL(string: "http://\(host):\(functionsPort)/\(projectID)/\(region)"),
            let storage = URL(string: "http://\(host):\(storagePort)"), let firestore = URL(string: "http://\(host):\(firestorePort)")
        else { throw DomainError.invalidArgument("\"\(host)\" does not make an emulator URL") }
        return FirebaseAdapters(
            identityToolkit: try IdentityToolkitClient.emulator(host: host, port: authPort, options: options), functionsURL: functions,
            storageBucket: "\(projectID).appspot.com", storageURL: storage, options: options, sessions: sessions, pollInterval: pollInterval,
            firestoreProjectID: projectID, firestoreURL: firestore)
    }

    /// Runs a wire call and maps its failure into the domain.
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw FirebaseErrorMapping.map(error) }
    }

    /// Calls function `name` with `body` as its `data` and decodes its `result`.
    func call<Response: Decodable>(_ name: String, _ body: some Encodable & Sendable) async throws -> Response {
        do { return try await functions.call(name, data: body, as: Response.self) } catch {
            let mapped = FirebaseErrorMapping.map(error)
            if case .unauthenticated? = mapped as? DomainError { await forgetEndedSession() }
            throw mapped
        }
    }

    /// When the token session ended on its own (the server refused the refresh token), the
    /// person is signed out: say so to ``AuthClient/sessionChanges`` followers too.
    func forgetEndedSession() async {
        if await tokens.currentTokens == nil, await sessions.session != nil { await sessions.set(nil) }
    }

    /// Takes over a session signed in elsewhere (another provider's auth over the same
    /// project), so the functions are called as that person; `nil` signs out here.
    public func adopt(_ session: AuthSession?) async {
        await tokens.replace(
            with: session.map {
                AuthTokens(idToken: $0.accessToken, refreshToken: $0.refreshToken, expiresAt: $0.expiresAt, localId: $0.userID.description)
            })
        await sessions.set(session)
    }

    /// The stored session with the tokens as they are now (the session refreshes them on
    /// its own), or `nil` once the tokens are gone.
    func currentSession() async -> AuthSession? {
        guard var session = await sessions.session, let current = await tokens.currentTokens else { return nil }
        session.accessToken = current.idToken
        session.refreshToken = current.refreshToken
        session.expiresAt = current.expiresAt
        return session
    }
}

/// The `sessionInfo` of each phone number a code was sent to, kept until sign-in succeeds
/// (a wrong code may be retried with the same one).
actor PendingVerifications {
    private var byPhone: [PhoneNumber: String] = [:]

    func set(_ sessionInfo: String?, for phone: PhoneNumber) { byPhone[phone] = sessionInfo }
    func sessionInfo(for phone: PhoneNumber) -> String? { byPhone[phone] }
}
