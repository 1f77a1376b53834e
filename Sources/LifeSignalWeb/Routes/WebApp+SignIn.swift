import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// Signing in and out: a code by SMS (the same codes, caps and throttles as `/auth/v1/otp`)
/// or email and password, each ending in a session of `/auth/v1`'s kind carried by the cookie.
extension WebApp {
    func registerSignIn(on router: some RouterMethods<Context>) {
        router.get("sign-in") { request, _ in await self.guarded { try await self.signInPage(request) } }
        router.post("sign-in/code") { request, context in await self.guarded { try await self.sendCode(request, context) } }
        router.post("sign-in/verify") { request, _ in await self.guarded { try await self.verifyCode(request) } }
        router.post("sign-in/password") { request, _ in await self.guarded { try await self.passwordSignIn(request) } }
        router.post("sign-out") { request, _ in
            await self.signedInForm(request) { session, _ in
                try await self.backend.auth.sessions.signOut(sessionID: session.id)
                return PageResponse.redirect(to: "/sign-in", extra: [.setCookie: self.cookie.clear()])
            }
        }
    }

    private func signInPage(_ request: Request) async throws -> Response {
        let next = LocalPath.safe(request.uri.queryParameters.get("next") ?? "/")
        if try await session(request) != nil { return PageResponse.redirect(to: next) }
        return signInForm(.ok, SignInView(next: next))
    }

    private func sendCode(_ request: Request, _ context: Context) async throws -> Response {
        guard sameOrigin.allows(request) else { return refused() }
        guard let form = try? await FormBody.read(request) else { return tooLarge() }
        let next = LocalPath.safe(form["next"] ?? "/")
        let phoneText = form["phone"] ?? ""
        let channel: CodeChannel = form["channel"] == "call" ? .call : .sms
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(phoneText)
            try await backend.auth.requestCode(phone: phone.e164, clientAddress: clientAddress(request, context), by: channel)
        } catch let error as DomainError {
            return signInForm(WebErrors.status(of: error), SignInView(next: next, phone: phoneText, error: WebErrors.text(of: error)))
        } catch let refusal as AuthRefusal {
            return signInForm(.badRequest, SignInView(next: next, phone: phoneText, error: WebErrors.text(of: refusal)))
        }
        return codeForm(.ok, SignInView(next: next, phone: phone.e164, called: channel == .call))
    }

    private func verifyCode(_ request: Request) async throws -> Response {
        guard sameOrigin.allows(request) else { return refused() }
        guard let form = try? await FormBody.read(request) else { return tooLarge() }
        let view = SignInView(next: LocalPath.safe(form["next"] ?? "/"), phone: form["phone"] ?? "")
        do {
            let issued = try await backend.auth.verifyCode(phone: view.phone, code: (form["code"] ?? "").filter { !$0.isWhitespace })
            return signedIn(issued, next: view.next)
        } catch let error as DomainError {
            var view = view
            view.error = WebErrors.text(of: error)
            return codeForm(WebErrors.status(of: error), view)
        }
    }

    private func passwordSignIn(_ request: Request) async throws -> Response {
        guard sameOrigin.allows(request) else { return refused() }
        guard let form = try? await FormBody.read(request) else { return tooLarge() }
        let next = LocalPath.safe(form["next"] ?? "/")
        do {
            let issued = try await backend.auth.passwords.signIn(
                email: form["email"], phone: nil, password: form.fields.first { $0.name == "password" }?.value ?? "")
            return signedIn(issued, next: next)
        } catch let refusal as AuthRefusal {
            return signInForm(.badRequest, SignInView(next: next, error: WebErrors.text(of: refusal)))
        } catch let error as DomainError {
            return signInForm(WebErrors.status(of: error), SignInView(next: next, error: WebErrors.text(of: error)))
        }
    }

    private func signedIn(_ issued: IssuedSession, next: String) -> Response {
        PageResponse.redirect(to: next, extra: [.setCookie: cookie.set(backend.auth.cookies.cookieValue(for: issued))])
    }

    private func signInForm(_ status: HTTPResponse.Status, _ view: SignInView) -> Response {
        PageResponse.html(status, WebTemplates.page("sign-in", view, title: "Sign in", chrome: .signedOut))
    }

    private func codeForm(_ status: HTTPResponse.Status, _ view: SignInView) -> Response {
        PageResponse.html(status, WebTemplates.page("sign-in-code", view, title: "Enter your code", chrome: .signedOut))
    }
}
