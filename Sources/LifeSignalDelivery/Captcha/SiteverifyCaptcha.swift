import AsyncHTTPClient
import Foundation
import NIOCore

/// Checks a captcha token with hCaptcha or Cloudflare Turnstile, which share one `siteverify`
/// protocol: `POST` a form of `secret`, `response` (the token) and optional `remoteip`; the
/// answer is JSON, `{"success": true|false, "error-codes": […], "hostname": …}`.
///
/// A token is single-use at the provider: a second check of the same token is `false`
/// (`timeout-or-duplicate`). A refused token, or a secret the provider does not know, is
/// `false` too (with `invalid-input-secret` in ``Outcome/errorCodes``); only an answer that
/// never comes, is not 2xx or is not siteverify JSON throws a ``SiteverifyError``, whose
/// description never contains the secret.
///
/// The request goes through `httpClient` (AsyncHTTPClient's shared client unless given one,
/// so there is nothing to shut down), bounded by `timeout` from the first byte sent to the
/// last byte of the answer. The shared client follows redirects; pass a client whose
/// configuration disallows them to be sure the secret goes to `url` and nowhere else.
public struct SiteverifyCaptcha: Sendable, CustomStringConvertible, CustomReflectable {
    /// The two providers of the protocol, each with its production URL.
    public enum Provider: String, Sendable, CaseIterable {
        case hcaptcha
        case turnstile

        /// Where the provider verifies tokens.
        public var defaultURL: URL {
            switch self {
            case .hcaptcha: URL(string: "https://api.hcaptcha.com/siteverify")!
            case .turnstile: URL(string: "https://challenges.cloudflare.com/turnstile/v0/siteverify")!
            }
        }

        /// The provider's name for messages.
        var displayName: String {
            switch self {
            case .hcaptcha: "hCaptcha"
            case .turnstile: "Cloudflare Turnstile"
            }
        }
    }

    /// The provider's answer to one token.
    public struct Outcome: Sendable, Hashable {
        /// Whether the token is a solved captcha this secret's site has not had verified before.
        public let success: Bool
        /// The provider's reasons for a refusal (`invalid-input-secret`, `invalid-input-response`,
        /// `timeout-or-duplicate`, …); usually empty on success.
        public let errorCodes: [String]
        /// The site the captcha was solved on, when the provider says.
        public let hostname: String?

        public init(success: Bool, errorCodes: [String] = [], hostname: String? = nil) {
            self.success = success
            self.errorCodes = errorCodes
            self.hostname = hostname
        }
    }

    public let provider: Provider
    /// ``Provider/defaultURL`` unless given another (a stand-in's in tests).
    public let url: URL
    /// The bound on one verification, the answer's body included.
    public let timeout: Duration
    private let secret: String
    private let httpClient: HTTPClient

    /// The most of an answer read: siteverify answers are a few hundred bytes.
    static let maximumAnswerBytes = 64 * 1024

    /// - Parameters:
    ///   - secret: the site's secret key (hCaptcha's account secret, Turnstile's widget secret).
    ///   - url: where to verify; the provider's ``Provider/defaultURL`` when `nil`.
    ///   - timeout: the bound on one verification; one that is not positive fails every
    ///     verification at once.
    public init(provider: Provider, secret: String, url: URL? = nil, httpClient: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.provider = provider
        self.secret = secret
        self.url = url ?? provider.defaultURL
        self.httpClient = httpClient
        self.timeout = timeout
    }

    /// Never the secret: verifiers end up in logs.
    public var description: String {
        "SiteverifyCaptcha(\(provider.rawValue), \(url.absoluteString), timeout: \(timeout))"
    }

    /// Never the secret, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: ["provider": provider, "url": url, "timeout": timeout], displayStyle: .struct)
    }

    /// Whether `token` is a solved, unused captcha. `remoteIP` (the client's address, when
    /// known) goes to the provider as `remoteip`. An empty token is `false` without a request.
    ///
    /// - Throws: a ``SiteverifyError`` when the provider cannot be reached in time, answers
    ///   other than 2xx, or answers something that is not siteverify JSON; `CancellationError`
    ///   when the task is cancelled.
    public func verify(token: String, remoteIP: String?) async throws -> Bool {
        try await siteverify(token: token, remoteIP: remoteIP).success
    }

    /// The provider's whole answer to `token`, for a caller that logs why a token was refused
    /// (`invalid-input-secret` is the operator's mistake, not the client's). An empty token is
    /// `missing-input-response` without a request.
    ///
    /// - Throws: as ``verify(token:remoteIP:)``.
    public func siteverify(token: String, remoteIP: String?) async throws -> Outcome {
        guard !token.isEmpty else { return Outcome(success: false, errorCodes: ["missing-input-response"]) }
        var fields = [("secret", secret), ("response", token)]
        if let remoteIP, !remoteIP.isEmpty { fields.append(("remoteip", remoteIP)) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let form = fields.map { "\(TwilioClient.formEncoded($0.0))=\(TwilioClient.formEncoded($0.1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: form))

        let answer: Answer
        do {
            answer = try await exchange(request)
        } catch let error as SiteverifyError {
            throw error
        } catch let error as HTTPClientError where [.deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout].contains(error) {
            throw SiteverifyError.timedOut(provider, after: timeout)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw SiteverifyError.unreachable(provider, reason: redacted(String(describing: error)))
        }
        guard (200..<300).contains(answer.status) else {
            throw SiteverifyError.status(provider, code: answer.status, excerpt: excerpt(answer.body))
        }
        guard let reply = try? JSONDecoder().decode(Reply.self, from: answer.body) else {
            throw SiteverifyError.undecodable(provider, excerpt: excerpt(answer.body))
        }
        return Outcome(success: reply.success, errorCodes: reply.errorCodes, hostname: reply.hostname)
    }

    private struct Answer: Sendable {
        let status: Int
        let body: Data
    }

    /// The request and its whole answer within `timeout`. AsyncHTTPClient's deadline bounds
    /// the connection and the answer's head (when it passes after failed connection attempts,
    /// the client throws the last attempt's error, as for a closed port); it ends when the head
    /// arrives, so the body is raced against a sleep for the time left.
    private func exchange(_ request: HTTPClientRequest) async throws -> Answer {
        let (timeout, provider) = (timeout, provider)
        let started = ContinuousClock.now
        let response = try await httpClient.execute(request, deadline: NIODeadline.now() + Self.timeAmount(timeout))
        let left = timeout - (ContinuousClock.now - started)
        return try await withThrowingTaskGroup(of: Answer?.self) { group in
            group.addTask {
                let body: ByteBuffer
                do {
                    body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
                } catch is NIOTooManyBytesError {
                    throw SiteverifyError.undecodable(provider, excerpt: "an answer over \(Self.maximumAnswerBytes) bytes")
                }
                return Answer(status: Int(response.status.code), body: Data(body.readableBytesView))
            }
            group.addTask {
                try await Task.sleep(for: left)
                return nil
            }
            defer { group.cancelAll() }
            guard let answer = try await group.next() ?? nil else { throw SiteverifyError.timedOut(provider, after: timeout) }
            return answer
        }
    }

    /// `duration` as NIO's, at least zero and at most a day (no overflow).
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let bounded = min(max(duration, .zero), .seconds(86_400))
        let (seconds, attoseconds) = bounded.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The start of an answer for an error message: the secret (as sent, or form-encoded)
    /// replaced before cutting, so no part of it survives, and control characters made spaces.
    private func excerpt(_ body: Data) -> String {
        let text = redacted(String(decoding: body, as: UTF8.self))
        let cut = text.count > 300 ? String(text.prefix(300)) + "…" : text
        return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    private func redacted(_ text: String) -> String {
        guard !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: "<secret>")
            .replacingOccurrences(of: TwilioClient.formEncoded(secret), with: "<secret>")
    }

    /// Siteverify's JSON: `success` must be a boolean; the rest is read when it is as expected.
    private struct Reply: Decodable {
        let success: Bool
        let errorCodes: [String]
        let hostname: String?

        enum CodingKeys: String, CodingKey {
            case success
            case errorCodes = "error-codes"
            case hostname
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            success = try container.decode(Bool.self, forKey: .success)
            errorCodes = (try? container.decodeIfPresent([String].self, forKey: .errorCodes)) ?? []
            hostname = try? container.decodeIfPresent(String.self, forKey: .hostname)
        }
    }
}

/// Why a captcha could not be checked (a refused token is not an error: it is `false`).
/// Descriptions never contain the secret.
public enum SiteverifyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection, or one that failed before an answer.
    case unreachable(SiteverifyCaptcha.Provider, reason: String)
    /// No whole answer within the timeout.
    case timedOut(SiteverifyCaptcha.Provider, after: Duration)
    /// An answer other than 2xx; `excerpt` is the start of its body.
    case status(SiteverifyCaptcha.Provider, code: Int, excerpt: String)
    /// A 2xx answer that is not siteverify JSON (no boolean `success`), or too long.
    case undecodable(SiteverifyCaptcha.Provider, excerpt: String)

    public var provider: SiteverifyCaptcha.Provider {
        switch self {
        case .unreachable(let provider, _), .timedOut(let provider, _), .status(let provider, _, _), .undecodable(let provider, _): provider
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let provider, let reason): "\(provider.displayName) siteverify could not be reached: \(reason)"
        case .timedOut(let provider, let after): "\(provider.displayName) siteverify did not answer within \(after)"
        case .status(let provider, let code, let excerpt): "\(provider.displayName) siteverify answered HTTP \(code): \(excerpt)"
        case .undecodable(let provider, let excerpt): "\(provider.displayName) siteverify answered something other than siteverify JSON: \(excerpt)"
        }
    }
}
