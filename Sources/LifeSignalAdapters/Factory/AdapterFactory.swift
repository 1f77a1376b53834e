import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// Every client a feature depends on, filled per capability.
public struct ClientSet: Sendable {
    public var auth: AuthClient
    public var checkIn: CheckInClient
    public var contacts: ContactsClient
    public var alerts: AlertClient
    public var pings: PingClient
    public var notifications: NotificationClient
    public var content: ContentClient
    public var user: UserClient
    /// Firestore-style documents (``DocumentsClient``).
    public var documents: DocumentsClient
    public var functions: CloudFunctionClient
    public var files: FileStorageClient
    public var messaging: MessagingClient

    /// Puts the clients where features look for them.
    public func install(into values: inout DependencyValues) {
        values.authClient = auth
        values.checkInClient = checkIn
        values.contactsClient = contacts
        values.alertClient = alerts
        values.pingClient = pings
        values.notificationClient = notifications
        values.contentClient = content
        values.userClient = user
        values.documentsClient = documents
        values.cloudFunctionClient = functions
        values.fileStorageClient = files
        values.messagingClient = messaging
    }
}

/// Builds a ``ClientSet`` from the adapters at hand and a ``ProviderSelection`` (seed
/// `003_…`'s AdapterFactory).
///
/// A mix shares one identity: when sign-in happens on one provider and a capability is
/// served by another, each new session is handed across (they verify the same project's
/// tokens), so the person is signed in everywhere at once.
///
/// The refresh token has one owner, the auth provider; the others take its sessions when
/// theirs expire (`AdapterFactory+Refresh.swift`), since the backend revokes a session whose
/// used refresh token comes back.
public struct AdapterFactory: Sendable {
    public var local: (any EmbeddedAdapters)?
    public var supabase: SupabaseAdapters?
    public var firebase: FirebaseAdapters?

    public init(local: (any EmbeddedAdapters)? = nil, supabase: SupabaseAdapters? = nil, firebase: FirebaseAdapters? = nil) {
        self.local = local
        self.supabase = supabase
        self.firebase = firebase
    }

    /// - Throws: ``DomainError/invalidArgument(_:)`` when a capability names a provider that is
    ///   not configured. Every provider serves every capability (content on Firebase through
    ///   the content callables, as the original app's Cloud Functions serve it).
    public func clients(_ selection: ProviderSelection) throws -> ClientSet {
        func pick<Client>(
            _ capability: Capability, local: (any EmbeddedAdapters) -> Client, supabase: (SupabaseAdapters) -> Client,
            firebase: (FirebaseAdapters) -> Client
        ) throws -> Client {
            switch selection.provider(for: capability) {
            case .local:
                guard let adapters = self.local else { throw Self.missing(capability, .local) }
                return local(adapters)
            case .supabase:
                guard let adapters = self.supabase else { throw Self.missing(capability, .supabase) }
                return supabase(adapters)
            case .firebase:
                guard let adapters = self.firebase else { throw Self.missing(capability, .firebase) }
                return firebase(adapters)
            }
        }
        var auth = try pick(.auth, local: \.authClient, supabase: \.authClient, firebase: \.authClient)
        let authProvider = selection.provider(for: .auth)
        let others = Set(Capability.allCases.filter { $0 != .auth }.map(selection.provider(for:))).subtracting([authProvider])
        var recipients: [@Sendable (AuthSession?) async -> Void] = []
        if others.contains(.local), let sessions = local?.sessions { recipients.append { await sessions.set($0) } }
        if others.contains(.firebase), let firebase { recipients.append { await firebase.adopt($0) } }
        if others.contains(.supabase), let supabase { recipients.append { await Self.adopt($0, on: supabase) } }
        if !recipients.isEmpty { auth = Self.sharing(auth, with: recipients) }
        delegateRefreshes(owner: authProvider, others: others)
        return ClientSet(
            auth: auth,
            checkIn: try pick(.checkIn, local: \.checkInClient, supabase: \.checkInClient, firebase: \.checkInClient),
            contacts: try pick(.contacts, local: \.contactsClient, supabase: \.contactsClient, firebase: \.contactsClient),
            alerts: try pick(.alerts, local: \.alertClient, supabase: \.alertClient, firebase: \.alertClient),
            pings: try pick(.pings, local: \.pingClient, supabase: \.pingClient, firebase: \.pingClient),
            notifications: try pick(.notifications, local: \.notificationClient, supabase: \.notificationClient, firebase: \.notificationClient),
            content: try pick(.content, local: \.contentClient, supabase: \.contentClient, firebase: \.contentClient),
            user: try pick(.user, local: \.userClient, supabase: \.userClient, firebase: \.userClient),
            documents: try pick(.documents, local: \.documentsClient, supabase: \.documentsClient, firebase: \.documentsClient),
            functions: try pick(.functions, local: \.cloudFunctionClient, supabase: \.cloudFunctionClient, firebase: \.cloudFunctionClient),
            files: try pick(.files, local: \.fileStorageClient, supabase: \.fileStorageClient, firebase: \.fileStorageClient),
            messaging: try pick(.messaging, local: \.messagingClient, supabase: \.messagingClient, firebase: \.messagingClient))
    }

    /// An auth client that also hands each new session (and each sign-out) to `recipients`.
    static func sharing(_ auth: AuthClient, with recipients: [@Sendable (AuthSession?) async -> Void]) -> AuthClient {
        var shared = auth
        shared.verifyCode = { phone, code in
            let session = try await auth.verifyCode(phone, code)
            for recipient in recipients { await recipient(session) }
            return session
        }
        shared.signOut = {
            try await auth.signOut()
            for recipient in recipients { await recipient(nil) }
        }
        shared.deleteAccount = {
            try await auth.deleteAccount()
            for recipient in recipients { await recipient(nil) }
        }
        return shared
    }

    /// Hands a session to the Supabase client (or signs it out there), as if GoTrue had issued it.
    static func adopt(_ session: AuthSession?, on adapters: SupabaseAdapters) async {
        let client = adapters.client
        guard let session else {
            try? await client.auth.signOut(scope: .local)
            return
        }
        try? await client.auth.setSession(supabaseSession(session))
    }

    static func missing(_ capability: Capability, _ provider: BackendProvider) -> DomainError {
        .invalidArgument("\(capability.rawValue) is set to \(provider.rawValue), which is not configured")
    }
}
