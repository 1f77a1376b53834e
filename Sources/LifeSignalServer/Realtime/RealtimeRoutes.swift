import Foundation
import Hummingbird
import HummingbirdWebSocket
import LifeSignalBackend
import Logging
import NIOCore

/// `/realtime/v1/websocket`: Supabase Realtime's socket, `postgres_changes` only.
///
/// The upgrade is granted to requests whose `apikey` (query or header, as Supabase's gateway
/// takes it) is a valid anon or service-role key and whose `vsn` this server speaks; every
/// other request falls through to the HTTP routes, which explain the refusal in the
/// gateway's JSON (401 for the key, 429 for an address with all its sockets open, 400
/// otherwise).
struct RealtimeRoutes<Context: RemoteAddressRequestContext>: Sendable {
    static var path: String { "realtime/v1/websocket" }

    let hub: RealtimeHub
    let backend: LifeSignalBackend
    let schema: SchemaCache
    let logger: Logger
    /// Who a socket's client is, for ``RealtimeLimits/socketsPerAddress`` (behind a trusted
    /// proxy, its `X-Forwarded-For`).
    var addresses = ClientAddressResolver(trustedProxies: [])

    /// The socket's own settings: a single inbound frame over ``RealtimeLimits/maxMessageBytes``
    /// is refused by the frame decoder itself (close 1009) before it is buffered.
    var webSocketConfiguration: WebSocketServerConfiguration {
        WebSocketServerConfiguration(maxFrameSize: hub.limits.maxMessageBytes)
    }

    func webSocketRouter() -> Router<RealtimeRequestContext> {
        let router = Router(context: RealtimeRequestContext.self)
        router.ws(
            RouterPath(stringLiteral: Self.path),
            shouldUpgrade: { request, context in
                guard await apiKey(of: request) != nil, PhoenixMessage.Serializer(vsn: vsn(of: request)) != nil,
                    await hub.hasRoom(for: address(of: request, peer: context.remoteAddress))
                else { return .dontUpgrade }
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                try await serve(
                    inbound: inbound, outbound: outbound, request: context.request,
                    address: address(of: context.request, peer: context.requestContext.remoteAddress))
            })
        return router
    }

    /// The answers to requests that were not upgraded (the API key was already checked by
    /// the gateway middleware).
    func register(on router: some RouterMethods<Context>) {
        router.group("realtime/v1").get("websocket") { request, context in
            // Refused before the upgrade, so the client learns why from the answer itself.
            if await !hub.hasRoom(for: address(of: request, peer: context.remoteAddress)) {
                hub.counters.refused(.socketsPerAddress)
                return JSONResponse.make(.tooManyRequests, ["message": RealtimeHub.addressRefusal(hub.limits)])
            }
            if PhoenixMessage.Serializer(vsn: vsn(of: request)) == nil {
                return JSONResponse.make(.badRequest, ["message": "Unsupported vsn \"\(vsn(of: request) ?? "")\": this server speaks 1.0.0 and 2.0.0"])
            }
            return JSONResponse.make(.badRequest, ["message": "Expected a WebSocket upgrade request"])
        }
    }

    /// Serves one socket. A message over the size limit ends it with the error the stream
    /// throws, which the WebSocket handler turns into close 1009.
    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, request: Request, address: String?) async throws {
        guard let key = await apiKey(of: request) else { return }
        let (frames, outbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let connection = RealtimeConnection(serializer: PhoenixMessage.Serializer(vsn: vsn(of: request)) ?? .object, outbox: outbox)
        let session = RealtimeSession(connection: connection, hub: hub, auth: backend.auth, schema: schema, apiKey: key, logger: logger)
        // Only sockets upgraded together past the check before the upgrade land here.
        if let refusal = await hub.connect(connection, address: address) {
            try? await outbound.close(.policyViolation, reason: refusal)
            return
        }
        var failure: (any Error)?
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    do { try await outbound.write(.text(frame)) } catch { break }
                }
            }
            // Why the server ends the socket; `abuse` closes with "policy violation" rather
            // than "unacceptable data".
            var refusal: (abuse: Bool, reason: String)?
            var rate = RealtimeMessageRate(perSecond: hub.limits.messagesPerSecond)
            do {
                reading: for try await message in inbound.messages(maxSize: hub.limits.maxMessageBytes) {
                    guard case .text(let text) = message else {
                        refusal = (false, "binary frames are not supported")
                        break reading
                    }
                    let outcome: RealtimeSession.Outcome
                    switch rate.take() {
                    case .admit: outcome = await session.handle(text)
                    case .refuse: outcome = session.refuseOverRate(text)
                    case .close:
                        hub.counters.refused(.messagesPerSecond)
                        refusal = (true, "Too many messages: at most \(hub.limits.messagesPerSecond) a second")
                        break reading
                    }
                    if case .close(let reason) = outcome {
                        refusal = (false, reason)
                        break reading
                    }
                }
            } catch {
                logger.debug("realtime: socket ended", metadata: ["error": "\(error)"])
                failure = error
            }
            await hub.disconnect(connection.id)
            connection.close()
            await group.waitForAll()
            if let refusal { try? await outbound.close(refusal.abuse ? .policyViolation : .unacceptableData, reason: refusal.reason) }
        }
        if let failure { throw failure }
    }

    /// The valid anon or service-role key of the request, if any.
    private func apiKey(of request: Request) async -> String? {
        guard let key = request.apiKey,
            let claims = try? await backend.auth.tokens.verify(key),
            claims.role == DatabaseRole.anon.rawValue || claims.role == DatabaseRole.serviceRole.rawValue
        else { return nil }
        return key
    }

    private func address(of request: Request, peer: SocketAddress?) -> String? {
        addresses.clientAddress(peer: peer, headers: request.headers)
    }

    private func vsn(of request: Request) -> String? {
        request.uri.queryParameters["vsn"].map(String.init)
    }
}

/// The WebSocket router's request context, which keeps the client's address for
/// ``RealtimeLimits/socketsPerAddress``.
struct RealtimeRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<RealtimeRequestContext>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}
