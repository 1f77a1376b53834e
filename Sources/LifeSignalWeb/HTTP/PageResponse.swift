import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import NIOCore

/// The responses every page of the web app gives: HTML with the strict headers, and `303 See
/// Other` after a form (so a reload never posts twice).
enum PageResponse {
    /// Scripts and styles only from this server's own files, no inline code at all; images
    /// from here (the QR code) and `data:`; nothing else loads, nothing frames the pages.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "manifest-src 'self'", "worker-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
    ].joined(separator: "; ")

    /// The headers every page and redirect carries. Pages show a person's own state, so no
    /// cache keeps them; no `Referer` leaves (a map link carries nothing of the page); only the
    /// page itself may ask for the location.
    static func headers(_ extra: HTTPFields = [:], policy: String = contentSecurityPolicy) -> HTTPFields {
        var fields = extra
        fields[.contentSecurityPolicy] = policy
        fields[.referrerPolicy] = "no-referrer"
        fields[.cacheControl] = "no-store"
        fields[.xRobotsTag] = "noindex, nofollow"
        fields[.xContentTypeOptions] = "nosniff"
        fields[.xFrameOptions] = "DENY"
        fields[.permissionsPolicy] = "geolocation=(self), camera=(), microphone=(), payment=(), usb=()"
        fields[.crossOriginOpenerPolicy] = "same-origin"
        return fields
    }

    static func html(_ status: HTTPResponse.Status, _ html: String, extra: HTTPFields = [:]) -> Response {
        var fields = extra
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers(fields), body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `303` to a path on this server (never a URL from the request: no open redirect).
    static func redirect(to path: String, extra: HTTPFields = [:]) -> Response {
        var fields = extra
        fields[.location] = LocalPath.safe(path)
        return Response(status: .seeOther, headers: headers(fields))
    }

    /// `Retry-After` for an answer given while the database cannot be reached.
    static var retryAfter: HTTPFields { [.retryAfter: String(DatabaseError.retryAfterSeconds)] }
}

/// A path on this server that a redirect may go to: `next=` after signing in names one.
enum LocalPath {
    /// `path` when it is a plain absolute path here (`/l/…`), `/` otherwise: `//evil.example`,
    /// `/\evil.example`, a scheme or control characters never leave the site.
    static func safe(_ path: String) -> String {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"), path.count <= 512,
            path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" })
        else { return "/" }
        return path
    }
}
