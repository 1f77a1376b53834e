import Foundation
import HTTPTypes
import Hummingbird

/// The cookie that carries a browser's session (``CookieSessions``): `HttpOnly` (no script
/// reads it), `SameSite=Lax` (not sent with another site's form posts), `Path=/`, and under
/// https `Secure` with the `__Host-` prefix, which a browser keeps only for this exact host,
/// so no sibling subdomain can plant or overwrite it.
struct SessionCookie: Sendable {
    let name: String
    let isSecure: Bool
    /// As long as a session may go unused before it ends (``AuthPolicy/refreshTokenInactivity``).
    let maxAge: Int

    init(publicURL: URL?, maxAge: TimeInterval) {
        isSecure = publicURL?.scheme?.lowercased() == "https"
        name = isSecure ? "__Host-lifesignal" : "lifesignal"
        self.maxAge = Int(maxAge)
    }

    /// The session cookie's value in a request, if it carries one.
    func value(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    func set(_ value: String) -> String {
        attributes("\(name)=\(value)", maxAge: maxAge)
    }

    /// Tells the browser to forget the cookie (signing out, or a session that has ended).
    func clear() -> String { attributes("\(name)=", maxAge: 0) }

    private func attributes(_ pair: String, maxAge: Int) -> String {
        pair + "; Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (isSecure ? "; Secure" : "")
    }
}
