import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import NIOCore

/// `GET`/`POST /r/<token>`: the page a responder link opens, and its two answers; `GET
/// /i/<token>`: the page an invitation SMS links to (issue 19 item 4).
///
/// The token in the path is the only credential (no API key, no session): it is checked on
/// every request, and so is what it names, so a link stops working the moment its alert ends
/// or its responder is dropped. Every link that shows nothing gets the same page: 404 for a
/// token the server did not make or that has expired, 410 for a valid one whose alert is over
/// or gone or whose responder is no longer one. Anonymous requests are rate limited per client address by
/// `RateLimitMiddleware`, like every other anonymous route.
public struct ResponderPageRoutes<Context: RequestContext>: Sendable {
    let backend: LifeSignalBackend
    let links: ResponderLinks
    /// Forms may post from the request's own `Host` and the public URL's origin.
    let sameOrigin: SameOrigin

    public init(backend: LifeSignalBackend, publicURL: URL?) {
        self.backend = backend
        let base = publicURL ?? URL(string: "http://127.0.0.1") ?? URL(fileURLWithPath: "/")
        self.links = backend.responderLinks(baseURL: base)
        self.sameOrigin = SameOrigin(publicURL: publicURL)
    }

    public func register(on router: some RouterMethods<Context>) {
        router.get("r/:token") { request, context in await Self.guarded { try await self.show(request, context) } }
        router.head("r/:token") { request, context in await Self.guarded { try await self.show(request, context) } }
        router.post("r/:token") { request, context in await Self.guarded { try await self.answer(request, context) } }
        router.get("i/:token") { request, context in await Self.guarded { try await self.invitation(request, context) } }
        router.head("i/:token") { request, context in await Self.guarded { try await self.invitation(request, context) } }
    }

    /// A page even when something fails: 503 with `Retry-After` while the database cannot be
    /// reached (a responder should try again, not give up), 500 otherwise; neither says more.
    private static func guarded(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let error as DatabaseError where error.isUnavailable {
            return page(.serviceUnavailable, ResponderPageHTML.unavailableNow(), extra: PageResponse.retryAfter)
        } catch {
            return page(.internalServerError, ResponderPageHTML.unavailableNow())
        }
    }

    // MARK: Responder page

    private enum Checked {
        case link(ResponderLink)
        /// Not a token this server made, or expired: 404.
        case unknown
    }

    private func check(_ context: Context) -> Checked {
        guard let token = context.parameters.get("token"), let link = links.verify(token, now: backend.clock.now()) else {
            return .unknown
        }
        return .link(link)
    }

    private func show(_ request: Request, _ context: Context) async throws -> Response {
        guard case .link(let link) = check(context) else { return Self.page(.notFound, ResponderPageHTML.unavailable()) }
        switch try await backend.responderPage(for: link) {
        case .active(let page): return Self.page(.ok, ResponderPageHTML.active(page, now: backend.clock.now()))
        case .markedSafeByYou: return Self.page(.ok, ResponderPageHTML.markedSafe())
        case .ended: return Self.page(.gone, ResponderPageHTML.unavailable())
        }
    }

    /// "I'm on it" or "They're safe", then 303 back to the page, which shows the outcome. The
    /// link's responder acts as themselves, through the same rules as the app's calls.
    private func answer(_ request: Request, _ context: Context) async throws -> Response {
        guard sameOrigin.allows(request) else { return Self.page(.forbidden, ResponderPageHTML.refused()) }
        guard case .link(let link) = check(context) else { return Self.page(.notFound, ResponderPageHTML.unavailable()) }
        let action: String?
        do { action = try await FormBody.read(request, limit: 1024)["action"] } catch {
            return Self.page(.contentTooLarge, ResponderPageHTML.refused())
        }
        // What the page shows now decides what may be done: nothing once the alert is over or
        // the responder was dropped.
        guard case .active = try await backend.responderPage(for: link) else { return Self.page(.gone, ResponderPageHTML.unavailable()) }
        let caller = Caller.user(link.responder)
        do {
            switch action {
            case "on_it": _ = try await backend.alerts.respond(caller: caller, alertID: link.alertID)
            case "safe": _ = try await backend.alerts.markSafe(caller: caller, alertID: link.alertID)
            default: return Self.page(.badRequest, ResponderPageHTML.refused())
            }
        } catch DomainError.alreadyExists {
            // Said twice (a double tap): the page shows it was said.
        } catch DomainError.failedPrecondition, DomainError.forbidden, DomainError.notFound {
            // Ended or dropped between the check and the write.
            return Self.page(.gone, ResponderPageHTML.unavailable())
        }
        // Relative to `/r/<token>`: the token alone resolves to the same page, also behind a
        // proxy that serves the server under a path prefix.
        let token = context.parameters.get("token") ?? ""
        return Response(status: .seeOther, headers: Self.headers([.location: token]))
    }

    // MARK: Invitation page

    private func invitation(_ request: Request, _ context: Context) async throws -> Response {
        guard let token = context.parameters.get("token"), let link = links.verifyInvitation(token, now: backend.clock.now()) else {
            return Self.page(.notFound, InvitationPageHTML.unavailable())
        }
        guard let page = try await backend.invitationPage(for: link) else { return Self.page(.gone, InvitationPageHTML.unavailable()) }
        return Self.page(.ok, InvitationPageHTML.page(page))
    }

    // MARK: Responses

    /// The headers every page and redirect carries: no script, no framing, not kept in any
    /// cache, not indexed, and no `Referer` carrying the token to a map or anywhere else: the
    /// web app's, under the responder pages' stricter policy (no script at all).
    static func headers(_ extra: HTTPFields = [:]) -> HTTPFields {
        PageResponse.headers(extra, policy: PageHTML.contentSecurityPolicy)
    }

    static func page(_ status: HTTPResponse.Status, _ html: String, extra: HTTPFields = [:]) -> Response {
        var fields = extra
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(
            status: status, headers: headers(fields),
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
