import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import NIOCore
import QREncoder

/// "My QR code" and the page its link opens. The code holds `<origin>/l/<code id>`: any
/// phone's camera opens it, the page asks the scanner to sign in if needed, then to confirm
/// the link, which goes through the same rule as the app's scan (`add-contact`): showing the
/// code is its owner's consent, and the code works once, until it expires.
extension WebApp {
    func registerLinks(on router: some RouterMethods<Context>) {
        router.get("qr") { request, _ in
            await self.signedInPage(request) { session in
                let code = try await self.backend.contacts.qrCode(caller: session.caller)
                let link = self.origin(of: request) + "/l/" + code.id.uuidString.lowercased()
                let symbol = try Self.symbol(for: link)
                let view = QRView(
                    csrf: session.csrfToken, said: Self.notice(request.uri.queryParameters.get("said")), link: link,
                    expires: PageTime.readable(code.expiresAt), pixels: min(320, symbol.size * 6 + 48), version: String(code.id.uuidString.prefix(8)))
                return PageResponse.html(.ok, WebTemplates.page("qr", view, title: "My QR code", chrome: .signedIn(csrf: session.csrfToken, current: "people")))
            }
        }
        router.get("qr.svg") { request, _ in
            await self.signedInPage(request) { session in
                let code = try await self.backend.contacts.qrCode(caller: session.caller)
                let svg = try Self.symbol(for: self.origin(of: request) + "/l/" + code.id.uuidString.lowercased())
                    .svg(moduleSize: 8, quietZone: 4, title: "QR code for linking with you")
                return Response(
                    status: .ok, headers: PageResponse.headers([.contentType: "image/svg+xml"]), body: .init(byteBuffer: ByteBuffer(string: svg)))
            }
        }
        router.post("qr/new") { request, _ in
            await self.signedInForm(request) { session, _ in
                _ = try await self.backend.contacts.newQRCode(caller: session.caller)
                return PageResponse.redirect(to: "/qr?said=new-code")
            }
        }
        router.get("l/:code") { request, context in
            await self.signedInPage(request) { session in
                let code = try Self.uuid(context.parameters.get("code"))
                let owner = try await self.backend.contacts.lookUpQRCode(caller: session.caller, qrCodeID: code)
                let view = LinkView(csrf: session.csrfToken, name: owner.name.isEmpty ? "this person" : owner.name, code: code.uuidString.lowercased())
                return PageResponse.html(.ok, WebTemplates.page("link", view, title: "Link", chrome: .signedIn(csrf: session.csrfToken, current: "people")))
            }
        }
        router.post("l/:code") { request, context in
            await self.signedInForm(request) { session, form in
                let code = try Self.uuid(context.parameters.get("code"))
                _ = try await self.backend.contacts.addContact(caller: session.caller, qrCodeID: code, roles: try Self.roles(in: form))
                return PageResponse.redirect(to: "/people?said=linked")
            }
        }
    }

    static func symbol(for link: String) throws -> QREncoder.QRCode {
        do { return try QREncoder.QRCode(text: link, errorCorrection: .medium) } catch {
            throw DomainError.internal("The QR code could not be drawn: \(error)")
        }
    }
}
