import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Who sent a request, as limits per client address count it.
///
/// The socket's peer is the client unless it is one of the configured trusted proxies; only
/// then is `X-Forwarded-For` read, from the right (the entry the proxy itself appended) past
/// any further trusted proxies, to the first address no trusted proxy stands for. Anything
/// to the left of that was written by the client and is ignored, so a client cannot choose
/// its own key. IPv6 clients are counted per /64, the block one subscriber gets.
struct ClientAddressResolver: Sendable {
    private let trusted: Set<String>

    init(trustedProxies: [String]) {
        trusted = Set(trustedProxies.compactMap(Self.canonical))
    }

    /// The key for the request's client, or `nil` when the connection has no IP peer (a Unix
    /// socket), which leaves per-address limits unapplied.
    func clientAddress(peer: SocketAddress?, headers: HTTPFields) -> String? {
        guard let peer, let peerText = Self.canonical(peer) else { return nil }
        var client = peerText
        if trusted.contains(peerText) {
            // Each X-Forwarded-For line is a comma-separated list; several lines read as one list.
            let hops = headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for hop in hops.reversed() {
                // A hop that is not an address was not written by a trusted proxy: stop at the
                // last address one vouched for.
                guard let address = Self.canonical(hop) else { break }
                client = address
                if !trusted.contains(address) { break }
            }
        }
        return Self.bucket(client)
    }

    /// An address in one spelling (`inet_ntop`'s), IPv4-mapped IPv6 as IPv4; `nil` when `text`
    /// is not an IP address.
    static func canonical(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 64, let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return canonical(address)
    }

    static func canonical(_ address: SocketAddress) -> String? {
        guard let text = address.ipAddress else { return nil }
        let mapped = "::ffff:"
        // `utf8.contains`: `contains(".")` on a string resolves to Foundation's substring
        // search, which bridges to NSString, on every request.
        if case .v6 = address, text.hasPrefix(mapped), text.utf8.dropFirst(mapped.utf8.count).contains(UInt8(ascii: ".")) {
            return String(text.dropFirst(mapped.count))
        }
        return text
    }

    /// The key an address is counted under: an IPv4 address itself, an IPv6 address's /64.
    static func bucket(_ canonical: String) -> String {
        guard canonical.utf8.contains(UInt8(ascii: ":")), let address = try? SocketAddress(ipAddress: canonical, port: 0),
            case .v6(let v6) = address
        else { return canonical }
        var bytes = v6.address.sin6_addr
        let prefix = withUnsafeBytes(of: &bytes) { raw in Array(raw.prefix(8)) }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(prefix[$0]) << 8 | UInt16(prefix[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
