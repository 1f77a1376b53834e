import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The embedded backend's adapters as the factory sees them: every capability's client, the
/// session they hold, and how they hand refreshes to the provider that owns the sign-in.
///
/// The adapters themselves (`LocalAdapters`) live in `LifeSignalLocalAdapters`, with the
/// backend they run in-process, so an app that talks only to Supabase or Firebase links no
/// database engine; an app that wants to run offline links that target too.
public protocol EmbeddedAdapters: Sendable {
    var authClient: AuthClient { get }
    var checkInClient: CheckInClient { get }
    var contactsClient: ContactsClient { get }
    var alertClient: AlertClient { get }
    var pingClient: PingClient { get }
    var notificationClient: NotificationClient { get }
    var contentClient: ContentClient { get }
    var userClient: UserClient { get }
    var documentsClient: DocumentsClient { get }
    var cloudFunctionClient: CloudFunctionClient { get }
    var fileStorageClient: FileStorageClient { get }
    var messagingClient: MessagingClient { get }
    /// The signed-in session; a mix hands sessions signed in elsewhere to it.
    var sessions: SessionStore { get }
    /// The current session, refreshed first when it expires within `margin` seconds.
    func validSession(margin: TimeInterval) async throws -> AuthSession
    /// Takes fresh sessions from `owner` instead of refreshing; `nil` refreshes here again.
    func delegateRefreshes(to owner: (@Sendable () async throws -> AuthSession?)?)
}

/// How ``LiveClients`` opens the `local` provider: `LocalAdapters.embeddedBackend(engines:)` in
/// `LifeSignalLocalAdapters`, given to ``LiveClients/register(_:)`` or to a ``LiveClients``
/// initialiser. Without one, a configuration that selects `local` is refused with a message
/// that says so.
public struct EmbeddedBackend: Sendable {
    /// Adapters over an opened backend, and how to close it.
    public struct Opened: Sendable {
        public var adapters: any EmbeddedAdapters
        public var close: @Sendable () async -> Void

        public init(adapters: any EmbeddedAdapters, close: @escaping @Sendable () async -> Void) {
            self.adapters = adapters
            self.close = close
        }
    }

    /// Opens (and migrates) the database the settings name.
    public var open: @Sendable (LocalSettings) async throws -> Opened

    public init(open: @escaping @Sendable (LocalSettings) async throws -> Opened) {
        self.open = open
    }
}
