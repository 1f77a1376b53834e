import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Phone calls through Twilio's Calls API: `POST /2010-04-01/Accounts/{sid}/Calls.json`.
extension TwilioClient {
    /// Places a call from `from` to `to` (both E.164). Twilio fetches what to say from `script`
    /// when it is answered, reports `answered` and the end to `statusCallback`, and tells
    /// whether a person or a machine answered (`MachineDetection=Enable`, `AnsweredBy` on
    /// every request), so a voicemail never counts as an answer. It rings for `ringSeconds`.
    ///
    /// - Returns: the call's id (`CA…`) and first status.
    /// - Throws: an ``SMSError`` (Twilio refuses calls as it refuses messages).
    public func call(to: String, from: String, script: URL, statusCallback: URL, ringSeconds: Int = 30) async throws -> SMSReceipt {
        for number in [to, from] {
            guard number.hasPrefix("+"), number.count > 1, number.count <= 16, number.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw SMSError.invalidRequest("not an E.164 number")
            }
        }
        let fields = [
            ("To", to), ("From", from), ("Url", script.absoluteString), ("Method", "POST"),
            ("StatusCallback", statusCallback.absoluteString), ("StatusCallbackMethod", "POST"),
            ("StatusCallbackEvent", "answered"), ("StatusCallbackEvent", "completed"),
            ("MachineDetection", "Enable"), ("Timeout", String(ringSeconds)),
        ]
        return try await post(makeRequest(resource: "Calls.json", fields: fields))
    }

    /// Places a call that says `twiML` (inline, no webhook): a sign-in code read out.
    public func call(to: String, from: String, twiML: String, ringSeconds: Int = 30) async throws -> SMSReceipt {
        for number in [to, from] {
            guard number.hasPrefix("+"), number.count > 1, number.count <= 16, number.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw SMSError.invalidRequest("not an E.164 number")
            }
        }
        let fields = [("To", to), ("From", from), ("Twiml", twiML), ("Timeout", String(ringSeconds))]
        return try await post(makeRequest(resource: "Calls.json", fields: fields))
    }
}
