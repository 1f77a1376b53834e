import Foundation
import HTTPTypes
import Hummingbird

/// Whether a form was posted from this server's own pages: the check every state-changing
/// request of the web app and the responder pages passes before anything else.
///
/// `Sec-Fetch-Site`, which every current browser sends, decides when present; otherwise
/// `Origin` must name this server or its public URL. (Under `Referrer-Policy: no-referrer`
/// Chromium sends `Origin: null` with a form, so `null` alone decides nothing; the per-session
/// form token is what holds then.)
public struct SameOrigin: Sendable {
    /// The public URL's origin, when the server is reached under one.
    public let publicOrigin: String?

    public init(publicURL: URL?) {
        self.publicOrigin = publicURL.flatMap(Self.origin(of:))
    }

    public func allows(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite] { return site == "same-origin" || site == "none" }
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        if let publicOrigin, origin == publicOrigin { return true }
        guard let host = request.head.authority else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// `scheme://host[:port]` of a URL, lower-cased.
    public static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}

extension HTTPField.Name {
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xRobotsTag = Self("X-Robots-Tag")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
