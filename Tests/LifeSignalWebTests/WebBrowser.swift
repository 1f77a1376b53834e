import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport

/// A browser as far as the pages' rules go, over a real socket: it keeps the session cookie
/// the server sets, follows nothing by itself, and posts forms the way a browser does
/// (`Sec-Fetch-Site: same-origin`, or what a test sets to play another site).
final class WebBrowser: @unchecked Sendable {
    let server: TestServer
    private(set) var cookie: String?

    init(_ server: TestServer) { self.server = server }

    struct Page: Sendable {
        let status: Int
        let headers: [String: String]
        let text: String

        func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The page's form token (`_csrf`), as a form would carry it.
        var csrf: String? {
            guard let range = text.range(of: "name=\"_csrf\" value=\"") else { return nil }
            return String(text[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Page {
        try await send("GET", path, headers: headers)
    }

    /// Posts `fields` as a form; `site` is the `Sec-Fetch-Site` a browser would send (nil: none).
    func post(_ path: String, _ fields: [(String, String)], site: String? = "same-origin", headers: [String: String] = [:]) async throws -> Page {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        if let site { headers["Sec-Fetch-Site"] = site }
        let body = fields.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        return try await send("POST", path, headers: headers, body: Data(body.utf8))
    }

    /// Posts a form with this browser's current form token, read from `page` (default: home).
    func submit(_ path: String, _ fields: [(String, String)] = [], from page: String = "/") async throws -> Page {
        let token = try await get(page).csrf ?? ""
        return try await post(path, [("_csrf", token)] + fields)
    }

    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> Page {
        var headers = headers
        if let cookie, headers["Cookie"] == nil { headers["Cookie"] = cookie }
        let reply = try await NIOHTTPTestClient.send(method, path, port: server.port, headers: headers, body: body)
        if let set = reply.headers["set-cookie"], let pair = set.split(separator: ";").first {
            let value = pair.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
            cookie = value.isEmpty || set.contains("Max-Age=0") ? nil : String(pair)
        }
        return Page(status: reply.status, headers: reply.headers, text: reply.text)
    }

    func forgetCookie() { cookie = nil }

    func setCookie(_ value: String?) { cookie = value }

    /// Signs in through the pages with a code sent by (recorded) SMS.
    func signIn(_ test: TestBackend, phone: String, next: String = "/") async throws -> Page {
        let sent = try await post("/sign-in/code", [("phone", phone), ("next", next)])
        guard sent.status == 200, let code = await test.sms.lastCode(for: try PhoneNumber(phone)) else {
            throw TestEnvironmentError(description: "no code was sent to \(phone): \(sent.status) \(sent.text)")
        }
        return try await post("/sign-in/verify", [("phone", phone), ("code", code.value), ("next", next)])
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
