import Crypto
import Foundation

/// Checks `X-Twilio-Signature` on a status callback: Base64(HMAC-SHA1(auth token, the full
/// callback URL followed by every POST parameter's name and value, in name order)). Without
/// this check anyone could mark a message delivered or failed.
public enum TwilioSignature {
    /// The signature Twilio sends for `url` and `parameters`.
    public static func expected(url: String, parameters: [(String, String)], authToken: String) -> String {
        var text = url
        for (name, value) in parameters.sorted(by: { $0.0 < $1.0 }) { text += name + value }
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(authToken.utf8)))
        return Data(code).base64EncodedString()
    }

    /// Whether `signature` is the right one, compared in constant time.
    public static func isValid(_ signature: String, url: String, parameters: [(String, String)], authToken: String) -> Bool {
        let wanted = Array(expected(url: url, parameters: parameters, authToken: authToken).utf8)
        let given = Array(signature.utf8)
        guard wanted.count == given.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(wanted, given) { difference |= a ^ b }
        return difference == 0
    }
}
