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
    }
}

/// Builds a ``ClientSet`` from the adapters at hand and a ``ProviderSelection`` (seed
/// `003_…`'s AdapterFactory).
///
/// A mix shares one identity: when sign-in happens on one provider and a capability is
/// served by the other, the session is handed across (both verify the same project's
/// tokens), so the person is signed in everywhere at once.
public struct AdapterFactory: Sendable {
    public var local: LocalAdapters?
    public var supabase: SupabaseAdapters?

    public init(local: LocalAdapters? = nil, supabase: SupabaseAdapters? = nil) {
        self.local = local
        self.supabase = supabase
    }

    /// - Throws: ``DomainError/invalidArgument(_:)`` when a capability names a provider that is
    ///   not configured, or Firebase (whose adapters cover push only so far).
    public func clients(_ selection: ProviderSelection) throws -> ClientSet {
        func pick<Client>(_ capability: Capability, local: (LocalAdapters) -> Client, supabase: (SupabaseAdapters) -> Client) throws -> Client {
            switch selection.provider(for: capability) {
            case .local:
                guard let adapters = self.local else { throw Self.missing(capability, .local) }
                return local(adapters)
            case .supabase:
                guard let adapters = self.supabase else { throw Self.missing(capability, .supabase) }
                return supabase(adapters)
            case .firebase:
                throw DomainError.invalidArgument("Firebase does not provide \(capability.rawValue) yet; choose local or supabase")
            }
        }
        var auth = try pick(.auth, local: \.authClient, supabase: \.authClient)
        let usesLocal = Capability.allCases.contains { $0 != .auth && selection.provider(for: $0) == .local }
        if selection.provider(for: .auth) == .supabase, usesLocal, let local {
            auth = Self.sharing(auth, with: local.sessions)
        }
        return ClientSet(
            auth: auth,
            checkIn: try pick(.checkIn, local: \.checkInClient, supabase: \.checkInClient),
            contacts: try pick(.contacts, local: \.contactsClient, supabase: \.contactsClient),
            alerts: try pick(.alerts, local: \.alertClient, supabase: \.alertClient),
            pings: try pick(.pings, local: \.pingClient, supabase: \.pingClient),
            notifications: try pick(.notifications, local: \.notificationClient, supabase: \.notificationClient),
            content: try pick(.content, local: \.contentClient, supabase: \.contentClient),
            user: try pick(.user, local: \.userClient, supabase: \.userClient))
    }

    /// An auth client that also hands each new session to the local adapters.
    static func sharing(_ auth: AuthClient, with sessions: SessionStore) -> AuthClient {
        var shared = auth
        shared.verifyCode = { phone, code in
            let session = try await auth.verifyCode(phone, code)
            await sessions.set(session)
            return session
        }
        shared.signOut = {
            try await auth.signOut()
            await sessions.set(nil)
        }
        return shared
    }

    static func missing(_ capability: Capability, _ provider: BackendProvider) -> DomainError {
        .invalidArgument("\(capability.rawValue) is set to \(provider.rawValue), which is not configured")
    }
}
