import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// The web app `lifesignal serve` answers at `/`: the pages a person uses from any phone's
/// browser to check in, raise an SOS, manage their people and respond to them.
///
/// Every page acts through the same backend services as the API, as the signed-in person
/// (``CookieSessions/Session/caller``), so there is no second authorization path: what the API
/// refuses, a page refuses. Pages work without JavaScript; the small modules under `/assets`
/// only add what the platform needs (a live countdown, the location with an SOS).
public struct WebApp<Context: RequestContext>: Sendable {
    let backend: LifeSignalBackend
    let cookie: SessionCookie
    let sameOrigin: SameOrigin
    /// Links the app hands out (the QR code's) are on this URL when set, else on the request's host.
    let publicURL: URL?
    /// The client's address, as the server resolves it behind trusted proxies: sign-in codes
    /// are capped per address as `/auth/v1/otp`'s are.
    let clientAddress: @Sendable (Request, Context) -> String?
    /// The VAPID public key the page subscribes with; `nil`: no Web Push on this server.
    let webPushKey: String?
    /// Checks `/c/` tokens (their keys derived once, not per request).
    let links: ResponderLinks

    public init(
        backend: LifeSignalBackend, publicURL: URL?, webPushKey: String? = nil, clientAddress: @escaping @Sendable (Request, Context) -> String?
    ) {
        self.backend = backend
        self.webPushKey = webPushKey
        self.links = backend.responderLinks(baseURL: publicURL ?? URL(fileURLWithPath: "/"))
        self.publicURL = publicURL
        self.cookie = SessionCookie(publicURL: publicURL, maxAge: backend.auth.policy.refreshTokenInactivity)
        self.sameOrigin = SameOrigin(publicURL: publicURL)
        self.clientAddress = clientAddress
    }

    public func register(on router: some RouterMethods<Context>) {
        registerSignIn(on: router)
        registerHome(on: router)
        registerPeople(on: router)
        registerLinks(on: router)
        registerPush(on: router)
        registerCheckInLinks(on: router)
        registerTestAlerts(on: router)
        WebAssets.register(on: router)
    }

    // MARK: Plumbing every page shares

    /// The signed-in session the request's cookie proves, if any.
    func session(_ request: Request) async throws -> CookieSessions.Session? {
        guard let value = cookie.value(in: request) else { return nil }
        return try await backend.auth.cookies.session(fromCookie: value)
    }

    /// A page for a signed-in person; anyone else is sent to sign in and brought back after.
    func signedInPage(_ request: Request, _ body: (CookieSessions.Session) async throws -> Response) async -> Response {
        await guarded {
            guard let session = try await session(request) else {
                return signInRedirect(next: request.uri.path, clearing: cookie.value(in: request) != nil)
            }
            return try await body(session)
        }
    }

    /// A form of a signed-in person: posted from this site, carrying the session's form token,
    /// at most 8 KiB. Anything else changes nothing: 403, or 413 for a body too large.
    func signedInForm(_ request: Request, _ body: (CookieSessions.Session, FormBody) async throws -> Response) async -> Response {
        await guarded {
            guard sameOrigin.allows(request) else { return refused() }
            guard let session = try await session(request) else { return signInRedirect(next: "/", clearing: true) }
            let form: FormBody
            do { form = try await FormBody.read(request) } catch { return tooLarge() }
            guard backend.auth.cookies.isValidFormToken(form["_csrf"], for: session) else { return refused() }
            return try await body(session, form)
        }
    }

    /// A page even when something fails: the rule's own words for a refusal, 503 with
    /// `Retry-After` while the database cannot be reached, 500 saying nothing more otherwise.
    func guarded(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let error as DatabaseError where error.isUnavailable {
            return message(
                .serviceUnavailable, "Try again in a moment", "LifeSignal cannot reach its database just now. Nothing was changed.",
                extra: PageResponse.retryAfter)
        } catch let error as DomainError {
            return message(WebErrors.status(of: error), "That did not work", WebErrors.text(of: error), back: "/")
        } catch {
            return message(.internalServerError, "Something went wrong", "Nothing was changed. Please try again.", back: "/")
        }
    }

    func signInRedirect(next: String, clearing: Bool) -> Response {
        let target = next == "/" ? "/sign-in" : "/sign-in?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        return PageResponse.redirect(to: target, extra: clearing ? [.setCookie: cookie.clear()] : [:])
    }

    func refused() -> Response {
        message(.forbidden, "Not sent", "This form did not come from a LifeSignal page, so nothing was changed. Open the page again and retry.", back: "/")
    }

    func tooLarge() -> Response {
        message(.contentTooLarge, "Too much text", "The form was larger than LifeSignal accepts. Nothing was changed.", back: "/")
    }

    func message(
        _ status: HTTPResponse.Status, _ heading: String, _ text: String, back: String? = nil, extra: HTTPFields = [:]
    ) -> Response {
        let html = WebTemplates.page("message", MessageView(heading: heading, text: text, back: back), title: heading, chrome: .signedOut)
        return PageResponse.html(status, html, extra: extra)
    }

    /// The origin links are made on: the public URL, or the host the request came to.
    func origin(of request: Request) -> String {
        if let publicURL, let origin = SameOrigin.origin(of: publicURL) { return origin + publicURL.path.trimmingSuffix("/") }
        return "http://" + (request.head.authority ?? "127.0.0.1")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
