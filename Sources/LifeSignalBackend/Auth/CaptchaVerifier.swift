import Foundation

/// Checks the captcha a client solved before asking for a sign-in code or signing up
/// (GoTrue's `gotrue_meta_security.captcha_token`): an operator may demand one, so scripts
/// cannot ask for codes to strangers' numbers at the server's expense.
///
/// `serve` offers hCaptcha and Cloudflare Turnstile, which share one `siteverify` protocol
/// (`SiteverifyCaptcha` in `LifeSignalDelivery`).
public protocol CaptchaVerifier: Sendable {
    /// Whether `token` is a solved, unused captcha. `remoteIP` is the client's address, when
    /// known (both providers take it as `remoteip`). Throws only when the provider cannot be
    /// reached or answers nonsense; a refused token is `false`.
    func verify(token: String, remoteIP: String?) async throws -> Bool
}
