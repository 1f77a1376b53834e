import Dependencies
import LifeSignalClients

// Every client's live value: ``LiveClients/shared``'s deferred client, so a feature run in the
// live context with no overrides reaches the configured backend. The conformances live here,
// not beside the clients, because `LifeSignalClients` may not import the adapters (the
// isowords arrangement: the interface module declares the test key, the live module
// completes it). No `@retroactive`: both modules are in this package, so the compiler knows
// no other module can declare the same conformance.

extension AuthClient: DependencyKey {
    public static var liveValue: AuthClient { LiveClients.shared.deferred.auth }
}

extension CheckInClient: DependencyKey {
    public static var liveValue: CheckInClient { LiveClients.shared.deferred.checkIn }
}

extension ContactsClient: DependencyKey {
    public static var liveValue: ContactsClient { LiveClients.shared.deferred.contacts }
}

extension AlertClient: DependencyKey {
    public static var liveValue: AlertClient { LiveClients.shared.deferred.alerts }
}

extension PingClient: DependencyKey {
    public static var liveValue: PingClient { LiveClients.shared.deferred.pings }
}

extension NotificationClient: DependencyKey {
    public static var liveValue: NotificationClient { LiveClients.shared.deferred.notifications }
}

extension ContentClient: DependencyKey {
    public static var liveValue: ContentClient { LiveClients.shared.deferred.content }
}

extension UserClient: DependencyKey {
    public static var liveValue: UserClient { LiveClients.shared.deferred.user }
}

extension DocumentsClient: DependencyKey {
    public static var liveValue: DocumentsClient { LiveClients.shared.deferred.documents }
}

extension CloudFunctionClient: DependencyKey {
    public static var liveValue: CloudFunctionClient { LiveClients.shared.deferred.functions }
}

extension FileStorageClient: DependencyKey {
    public static var liveValue: FileStorageClient { LiveClients.shared.deferred.files }
}

extension MessagingClient: DependencyKey {
    public static var liveValue: MessagingClient { LiveClients.shared.deferred.messaging }
}
