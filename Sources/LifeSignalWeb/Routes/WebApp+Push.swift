import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import NIOCore

/// `POST /push/subscriptions`: the settings page's script registers this browser's Web Push
/// subscription as a `web` device token of the signed-in person, through the same rule as the
/// API's `register-push-token`. A script's request, so the form token travels in
/// `X-CSRF-Token` and the answer is JSON.
extension WebApp {
    func registerPush(on router: some RouterMethods<Context>) {
        router.post("push/subscriptions") { request, _ in
            await self.guarded {
                guard self.sameOrigin.allows(request), let session = try await self.session(request),
                    self.backend.auth.cookies.isValidFormToken(request.headers[.csrfToken], for: session)
                else { return Self.json(.forbidden, ["message": "Not allowed"]) }
                let body: String
                do { body = String(buffer: try await request.body.collect(upTo: 8 * 1024)) } catch {
                    return Self.json(.contentTooLarge, ["message": "The subscription is too large"])
                }
                do {
                    try await self.backend.notifications.registerPushToken(caller: session.caller, token: body, platform: .web)
                } catch let error as DomainError {
                    return Self.json(WebErrors.status(of: error), ["message": WebErrors.text(of: error)])
                }
                return Self.json(.created, ["message": "Alerts are on for this phone."])
            }
        }
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(
            status: status, headers: PageResponse.headers([.contentType: "application/json"]), body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension HTTPField.Name {
    static let csrfToken = Self("X-CSRF-Token")!
}
