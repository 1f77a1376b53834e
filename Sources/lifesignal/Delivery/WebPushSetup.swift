import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer

/// Web Push for `serve`: the server's VAPID key (RFC 8292), the contact push services may
/// write to, and the push services subscriptions may name.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `LIFESIGNAL_WEB_PUSH_VAPID_KEY` | the P-256 private key, the 32-byte scalar in base64url | generated once, kept in `<data dir>/web-push-vapid-key` |
/// | `LIFESIGNAL_WEB_PUSH_CONTACT` | `mailto:` or `https:` address for the push services | an https public URL, else `mailto:operator@localhost` |
/// | `LIFESIGNAL_WEB_PUSH_HOSTS` | push services subscriptions may name, comma-separated (`.suffix` matches subdomains) | the browsers' own: FCM, Mozilla, Apple, Windows |
///
/// The key is kept rather than made anew at each start: every browser's subscription is bound
/// to it, and a new key would silently end them all.
struct WebPushSetup {
    let key: WebPushVAPIDKey
    let contact: String
    let endpoints: WebPushEndpoints

    init(_ values: ConfigurationValues, dataDirectory: URL, publicURL: URL?) throws {
        if let text = values["LIFESIGNAL_WEB_PUSH_VAPID_KEY"] {
            do { key = try WebPushVAPIDKey(base64URLPrivateKey: text) } catch {
                throw values.invalid("LIFESIGNAL_WEB_PUSH_VAPID_KEY", "is not a P-256 private key (32 bytes, base64url)")
            }
        } else {
            key = try Self.keptKey(in: dataDirectory)
        }
        // Push services want a way to reach the operator: an https page or a mailbox.
        let page = publicURL.flatMap { $0.scheme == "https" ? $0.absoluteString : nil }
        contact = values["LIFESIGNAL_WEB_PUSH_CONTACT"] ?? page ?? "mailto:operator@localhost"
        guard contact.hasPrefix("mailto:") || contact.hasPrefix("https://") else {
            throw values.invalid("LIFESIGNAL_WEB_PUSH_CONTACT", "is a mailto: or https: address")
        }
        if let hosts = values["LIFESIGNAL_WEB_PUSH_HOSTS"] {
            endpoints = WebPushEndpoints(hosts: hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        } else {
            endpoints = WebPushEndpoints()
        }
    }

    func sender() throws -> WebPushChannelSender {
        WebPushChannelSender(client: try WebPushClient(configuration: WebPushConfiguration(vapidKey: key, contact: contact)), endpoints: endpoints)
    }

    var summary: String { "VAPID key \(key.publicKeyBase64URL.prefix(12))…, to \(endpoints.hosts.joined(separator: " "))" }

    private static func keptKey(in directory: URL) throws -> WebPushVAPIDKey {
        let file = directory.appendingPathComponent("web-push-vapid-key")
        if let text = try? String(contentsOf: file, encoding: .utf8),
            let key = try? WebPushVAPIDKey(base64URLPrivateKey: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return key
        }
        let key = WebPushVAPIDKey.generate()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: Data(key.base64URLPrivateKey.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw DomainError.failedPrecondition("The Web Push key cannot be kept in \(file.path); set LIFESIGNAL_WEB_PUSH_VAPID_KEY or LIFESIGNAL_DATA_DIR")
        }
        return key
    }
}
