import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The app's few static files, compiled into the binary (no second service, no build step):
/// served with an `ETag` so a browser asks again cheaply and gets `304` while nothing changed.
enum WebAssets {
    struct Asset: Sendable {
        let body: String
        let contentType: String
        let etag: String
        /// A file's own policy matters only for the service worker, whose response's policy is
        /// the worker's: it fetches the shell from this origin, and nothing else.
        let policy: String

        init(_ body: String, _ contentType: String, policy: String = "default-src 'none'; frame-ancestors 'none'") {
            self.body = body
            self.contentType = contentType
            self.policy = policy
            self.etag = "\"" + SHA256.hash(data: Data(body.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        }
    }

    static let assets: [String: Asset] = [
        "/assets/app.css": Asset(styleSheet, "text/css; charset=utf-8"),
        "/assets/app.js": Asset(appScript, "text/javascript; charset=utf-8"),
        "/assets/icon.svg": Asset(icon, "image/svg+xml"),
        "/manifest.webmanifest": Asset(manifest, "application/manifest+json"),
        "/sw.js": Asset(serviceWorker, "text/javascript; charset=utf-8", policy: "default-src 'none'; connect-src 'self'; img-src 'self'"),
    ]

    static func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        for (path, asset) in assets {
            router.get(RouterPath(path)) { request, _ in response(asset, request) }
        }
    }

    static func response(_ asset: Asset, _ request: Request) -> Response {
        var fields: HTTPFields = [.contentType: asset.contentType, .eTag: asset.etag, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"]
        fields[.contentSecurityPolicy] = asset.policy
        if request.headers[.ifNoneMatch] == asset.etag { return Response(status: .notModified, headers: fields) }
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: asset.body)))
    }
}
