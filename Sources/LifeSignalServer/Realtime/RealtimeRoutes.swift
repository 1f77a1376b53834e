import Foundation
import Hummingbird
import HummingbirdWebSocket
import LifeSignalBackend
import Logging

/// `/realtime/v1/websocket`: Supabase Realtime's socket, `postgres_changes` only.
///
/// The upgrade is granted to requests whose `apikey` (query or header, as Supabase's gateway
/// takes it) is a valid anon or service-role key and whose `vsn` this server speaks; every
/// other request falls through to the HTTP routes, which explain the refusal in the
/// gateway's JSON (401 for the key, 400 otherwise).
struct RealtimeRoutes<Context: RequestContext>: Sendable {
    static var path: String { "realtime/v1/websocket" }

    let hub: RealtimeHub
    let backend: LifeSignalBackend
    let schema: SchemaCache
    let logger: Logger
    /// Largest inbound frame; Phoenix messages from clients are small.
    let maxFrameSize = 1 << 20

    func webSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(stringLiteral: Self.path), shouldUpgrade: { request, _ in
            guard apiKey(of: request) != nil, PhoenixMessage.Serializer(vsn: vsn(of: request)) != nil else { return .dontUpgrade }
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            await serve(inbound: inbound, outbound: outbound, request: context.request)
        })
        return router
    }

    /// The answers to requests that were not upgraded (the API key was already checked by
    /// the gateway middleware).
    func register(on router: Router<Context>) {
        router.get(RouterPath(stringLiteral: Self.path)) { request, _ in
            if PhoenixMessage.Serializer(vsn: vsn(of: request)) == nil {
                return JSONResponse.make(.badRequest, ["message": "Unsupported vsn \"\(vsn(of: request) ?? "")\": this server speaks 1.0.0 and 2.0.0"])
            }
            return JSONResponse.make(.badRequest, ["message": "Expected a WebSocket upgrade request"])
        }
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, request: Request) async {
        guard let key = apiKey(of: request) else { return }
        let (frames, outbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let connection = RealtimeConnection(serializer: PhoenixMessage.Serializer(vsn: vsn(of: request)) ?? .object, outbox: outbox)
        let session = RealtimeSession(connection: connection, hub: hub, auth: backend.auth, schema: schema, apiKey: key, logger: logger)
        await hub.connect(connection)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    do { try await outbound.write(.text(frame)) } catch { break }
                }
            }
            var refusal: String?
            do {
                reading: for try await message in inbound.messages(maxSize: maxFrameSize) {
                    guard case .text(let text) = message else {
                        refusal = "binary frames are not supported"
                        break reading
                    }
                    if case .close(let reason) = await session.handle(text) {
                        refusal = reason
                        break reading
                    }
                }
            } catch {
                logger.debug("realtime: socket ended", metadata: ["error": "\(error)"])
            }
            await hub.disconnect(connection.id)
            connection.close()
            await group.waitForAll()
            if let refusal { try? await outbound.close(.unacceptableData, reason: refusal) }
        }
    }

    /// The valid anon or service-role key of the request, if any.
    private func apiKey(of request: Request) -> String? {
        guard let key = request.headers[.apiKey] ?? APIKeyMiddleware<Context>.queryKey(request.uri.query),
              let claims = try? backend.auth.verify(key),
              claims.role == DatabaseRole.anon.rawValue || claims.role == DatabaseRole.serviceRole.rawValue else { return nil }
        return key
    }

    private func vsn(of request: Request) -> String? {
        request.uri.queryParameters["vsn"].map(String.init)
    }
}
