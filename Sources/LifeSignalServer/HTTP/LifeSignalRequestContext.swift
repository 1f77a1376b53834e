import Hummingbird
import LifeSignalBackend
import NIOCore

/// What a route of this server needs from its request context: the peer address (limits per
/// client address) and who the caller is, as the middleware in front of the routes found out.
protocol AuthenticatedRequestContext: RemoteAddressRequestContext {
    /// What the request's bearer token proved; set once, by ``AuthenticationMiddleware``.
    var authentication: Authentication { get set }
    /// The role of the request's valid `apikey`, set by ``APIKeyMiddleware``; `nil` when it
    /// sent none (or on a path that needs none).
    var apiKeyRole: DatabaseRole? { get set }
}

/// The server's request context: Hummingbird's basic one plus the socket's peer address and
/// the caller, so that a token is verified once per request however many layers ask.
public struct LifeSignalRequestContext: RequestContext, AuthenticatedRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer of the connection the request came on: the client, or a proxy in front of it.
    public let remoteAddress: SocketAddress?
    var authentication: Authentication = .none
    var apiKeyRole: DatabaseRole?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
