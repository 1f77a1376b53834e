import Crypto
import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Short signed links a responder opens without the app (issue 19 item 4): `<base>/r/<token>`.
///
/// The token is the credential: 16 bytes of alert id, 16 of responder id, a 4-byte expiry
/// (Unix seconds, big-endian) and the first 9 bytes of an HMAC-SHA256 over those 36 bytes,
/// base64url without padding: exactly 60 characters, so a link fits in one SMS with its
/// message. 72 bits of tag are far beyond what a client can guess at the anonymous rate limit.
///
/// The key is derived from the server's JWT secret by HKDF with a label of its own, so a link
/// key never signs an access token and a leaked link says nothing about the JWT secret.
/// A valid token only says who it was made for; whether the page may show anything is decided
/// at every request (``LifeSignalBackend/responderPage(for:)``): the alert must still be active
/// and the responder still a responder of its owner.
public struct ResponderLinks: Sendable {
    /// How long a link made with ``url(alertID:responder:now:)`` works: 48 hours.
    public static let defaultLifetime: TimeInterval = 48 * 3600
    /// How long an invitation link made with ``invitationURL(invitationID:now:)`` works: 30 days.
    public static let defaultInvitationLifetime: TimeInterval = 30 * 24 * 3600

    /// Where the server is reached from outside (`ServerConfiguration.publicURL`); links are
    /// `<baseURL>/r/<token>`.
    public let baseURL: URL
    private let responderKey: SymmetricKey
    private let invitationKey: SymmetricKey
    private let checkInKey: SymmetricKey
    private let testKey: SymmetricKey

    static let tagLength = 9
    static let responderPayloadLength = 36
    static let invitationPayloadLength = 20

    public init(jwtSecret: String, baseURL: URL) {
        self.baseURL = baseURL
        let secret = SymmetricKey(data: Data(jwtSecret.utf8))
        responderKey = Self.derive(secret, label: "lifesignal responder links v1")
        invitationKey = Self.derive(secret, label: "lifesignal invitation links v1")
        checkInKey = Self.derive(secret, label: "lifesignal check-in links v1")
        testKey = Self.derive(secret, label: "lifesignal test alert links v1")
    }

    private static func derive(_ secret: SymmetricKey, label: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, salt: Data("lifesignal links".utf8), info: Data(label.utf8), outputByteCount: 32)
    }

    // MARK: Responder links

    /// The link for `responder` to act on `alertID` until `expiresAt` (clamped to what 32 bits
    /// of Unix seconds hold).
    public func url(alertID: UUID, responder: UserID, expiresAt: Date) -> URL {
        link(path: "r", token: token(alertID: alertID, responder: responder, expiresAt: expiresAt))
    }

    /// The link for `responder` to act on `alertID`, for ``defaultLifetime`` from `now`.
    public func url(alertID: UUID, responder: UserID, now: Date) -> URL {
        url(alertID: alertID, responder: responder, expiresAt: now.addingTimeInterval(Self.defaultLifetime))
    }

    /// The path segment after `/r/`.
    public func token(alertID: UUID, responder: UserID, expiresAt: Date) -> String {
        var payload = Self.bytes(alertID)
        payload += Self.bytes(responder.rawValue)
        payload += Self.bytes(expiresAt)
        return Self.seal(payload, key: responderKey)
    }

    /// What a token from ``token(alertID:responder:expiresAt:)`` names, or `nil` when it was not
    /// made with this key, was changed, or has expired at `now`. Says nothing about the alert.
    public func verify(_ token: String, now: Date) -> ResponderLink? {
        guard let payload = Self.open(token, payloadLength: Self.responderPayloadLength, key: responderKey) else { return nil }
        let expiresAt = Self.date(payload[32..<36])
        guard now < expiresAt else { return nil }
        return ResponderLink(alertID: Self.uuid(payload[0..<16]), responder: UserID(Self.uuid(payload[16..<32])), expiresAt: expiresAt)
    }

    // MARK: Invitation links

    /// The link an invitation SMS carries: `<base>/i/<token>`, bound to the invitation.
    public func invitationURL(invitationID: UUID, expiresAt: Date) -> URL {
        link(path: "i", token: invitationToken(invitationID: invitationID, expiresAt: expiresAt))
    }

    /// The invitation link for ``defaultInvitationLifetime`` from `now`.
    public func invitationURL(invitationID: UUID, now: Date) -> URL {
        invitationURL(invitationID: invitationID, expiresAt: now.addingTimeInterval(Self.defaultInvitationLifetime))
    }

    public func invitationToken(invitationID: UUID, expiresAt: Date) -> String {
        Self.seal(Self.bytes(invitationID) + Self.bytes(expiresAt), key: invitationKey)
    }

    /// The invitation a token names, or `nil` (forged, changed, expired).
    public func verifyInvitation(_ token: String, now: Date) -> InvitationLink? {
        guard let payload = Self.open(token, payloadLength: Self.invitationPayloadLength, key: invitationKey) else { return nil }
        let expiresAt = Self.date(payload[16..<20])
        guard now < expiresAt else { return nil }
        return InvitationLink(invitationID: Self.uuid(payload[0..<16]), expiresAt: expiresAt)
    }

    // MARK: Check-in links

    /// How long after its deadline a check-in link is still taken (the person's deadline must
    /// also still be the one it names): a late check-in still ends an escalation.
    public static let checkInLinkGrace: TimeInterval = 7 * 24 * 3600

    /// The link a reminder carries: `<base>/c/<token>`, bound to `user` and the `deadline` the
    /// reminder is about (39 characters of token).
    public func checkInURL(user: UserID, deadline: Date) -> URL {
        link(path: "c", token: checkInToken(user: user, deadline: deadline))
    }

    public func checkInToken(user: UserID, deadline: Date) -> String {
        Self.seal(Self.bytes(user.rawValue) + Self.bytes(deadline), key: checkInKey)
    }

    /// The person and deadline a check-in token names, or `nil` (forged, changed, or more
    /// than ``checkInLinkGrace`` past its deadline at `now`).
    public func verifyCheckIn(_ token: String, now: Date) -> CheckInLink? {
        guard let payload = Self.open(token, payloadLength: 20, key: checkInKey) else { return nil }
        let deadline = Self.date(payload[16..<20])
        guard now < deadline.addingTimeInterval(Self.checkInLinkGrace) else { return nil }
        return CheckInLink(user: UserID(Self.uuid(payload[0..<16])), deadline: deadline)
    }

    // MARK: Test alert links

    /// How long a test alert's link works: a week.
    public static let testLinkLifetime: TimeInterval = 7 * 24 * 3600

    /// The link a test alert carries: `<base>/t/<token>`, bound to that responder's message.
    public func testURL(notification: UUID, now: Date) -> URL {
        link(path: "t", token: Self.seal(Self.bytes(notification) + Self.bytes(now.addingTimeInterval(Self.testLinkLifetime)), key: testKey))
    }

    /// The test message a token names, or `nil` (forged, changed, expired).
    public func verifyTest(_ token: String, now: Date) -> UUID? {
        guard let payload = Self.open(token, payloadLength: 20, key: testKey), now < Self.date(payload[16..<20]) else { return nil }
        return Self.uuid(payload[0..<16])
    }

    // MARK: Encoding

    private func link(path: String, token: String) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        // Base64url and a known prefix: nothing here needs escaping, so the URL always parses.
        return URL(string: "\(base)/\(path)/\(token)") ?? baseURL.appendingPathComponent(path).appendingPathComponent(token)
    }

    private static func seal(_ payload: [UInt8], key: SymmetricKey) -> String {
        let tag = Array(HMAC<SHA256>.authenticationCode(for: payload, using: key)).prefix(tagLength)
        return Base64URL.encode(payload + tag)
    }

    private static func open(_ token: String, payloadLength: Int, key: SymmetricKey) -> [UInt8]? {
        guard token.utf8.count <= 128, let bytes = Base64URL.decode(token), bytes.count == payloadLength + tagLength else { return nil }
        let payload = Array(bytes[0..<payloadLength])
        let expected = Array(HMAC<SHA256>.authenticationCode(for: payload, using: key)).prefix(tagLength)
        guard constantTimeEqual(Array(expected), Array(bytes[payloadLength...])) else { return nil }
        return payload
    }

    /// Compares every byte whatever the first difference, so the time taken says nothing about
    /// how much of a guessed tag was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    private static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    private static func bytes(_ date: Date) -> [UInt8] {
        let seconds = UInt32(clamping: Int64(max(0, min(date.timeIntervalSince1970, Double(UInt32.max))).rounded(.down)))
        return [UInt8(seconds >> 24 & 0xFF), UInt8(seconds >> 16 & 0xFF), UInt8(seconds >> 8 & 0xFF), UInt8(seconds & 0xFF)]
    }

    private static func uuid(_ bytes: ArraySlice<UInt8>) -> UUID {
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static func date(_ bytes: ArraySlice<UInt8>) -> Date {
        let seconds = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// What a valid responder link names. Valid says only that the server made it and it has not
/// expired; the page still checks the alert and the relation.
public struct ResponderLink: Sendable, Hashable {
    public let alertID: UUID
    public let responder: UserID
    public let expiresAt: Date
}

/// What a valid check-in link names: whose check-in, for which deadline (whole seconds).
public struct CheckInLink: Sendable, Hashable {
    public let user: UserID
    public let deadline: Date
}

/// What a valid invitation link names.
public struct InvitationLink: Sendable, Hashable {
    public let invitationID: UUID
    public let expiresAt: Date
}

extension LifeSignalBackend {
    /// Responder and invitation links signed with a key derived from this backend's JWT secret,
    /// pointing at `baseURL` (where the server is reached from outside). Every server over one
    /// database with one JWT secret makes and accepts the same links.
    public func responderLinks(baseURL: URL) -> ResponderLinks {
        ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: baseURL)
    }
}

/// SHA-256 for the server's pages (a `Content-Security-Policy` hash of their inline style),
/// which has no crypto library of its own.
public enum PageDigest {
    /// `sha256-<base64>`, as a CSP source expression.
    public static func cspSource(_ text: String) -> String {
        "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
    }
}
