import Foundation
import LifeSignalTestSupport
import Testing

/// `lifesignal serve` as an operator starts it: its banner, and which keys it shows.
@Suite("lifesignal serve")
struct ServeCommandTests {
    /// Starts `serve` on a free port with its data in a new folder, waits for the banner, stops
    /// the server with SIGINT, and returns the banner and the exit status.
    static func banner(_ extra: [String]) async throws -> (text: String, status: Int32) {
        let serve = try await ServeProcess(extra)
        return (serve.banner, await serve.stop())
    }

    /// The value after `label` on its banner line.
    static func value(_ label: String, in banner: String) -> String? {
        banner.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
            .map { $0.trimmingCharacters(in: .whitespaces).dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    /// The `role` claim of a JWT, read without checking its signature.
    static func role(ofToken token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return claims["role"] as? String
    }

    @Test("the banner shows the URL and the anon key, and the service_role key only when asked for")
    func keysInTheBanner() async throws {
        let plain = try await Self.banner([])
        #expect(plain.text.contains("LifeSignal is listening on http://127.0.0.1:"), "banner: \(plain.text)")
        let anon = try #require(Self.value("anon key:", in: plain.text))
        #expect(Self.role(ofToken: anon) == "anon")
        #expect(Self.value("service_role key:", in: plain.text) == "not shown (--show-service-role-key prints it)")
        let tokens = plain.text.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("eyJ") }.map(String.init)
        #expect(tokens.compactMap(Self.role(ofToken:)) == ["anon"], "the anon key is the only token in the banner")
        #expect(plain.status == 0, "SIGINT stops the server cleanly")

        let shown = try await Self.banner(["--show-service-role-key"])
        let key = try #require(Self.value("service_role key:", in: shown.text))
        #expect(Self.role(ofToken: key) == "service_role")
        #expect(shown.status == 0)
    }

    @Test("sign-in and session limits set by flags are in force and on the banner; meaningless ones are refused")
    func signInLimits() async throws {
        let plain = try await Self.banner([])
        #expect(
            Self.value("sign-in:", in: plain.text)
                == "passwords of 8+ characters; reauthentication after 600 s; sessions end after 30 days unused; 10 codes a number a day, 20 an address an hour"
        )
        let set = try await Self.banner([
            "--password-min-length", "12", "--reauthentication-window", "60",
            "--refresh-token-inactivity-days", "7", "--codes-per-number-per-day", "3",
            "--codes-per-address-per-hour", "5",
        ])
        #expect(
            Self.value("sign-in:", in: set.text)
                == "passwords of 12+ characters; reauthentication after 60 s; sessions end after 7 days unused; 3 codes a number a day, 5 an address an hour")
        #expect(set.status == 0)
        for bad in [
            ["--password-min-length", "0"], ["--codes-per-number-per-day", "0"], ["--reauthentication-window", "-1"],
            ["--refresh-token-inactivity-days", "99999999999"], ["--image-max-dimension", "0"],
        ] {
            let refused = try await Self.banner(bad)
            #expect(refused.status != 0, "\(bad) must be refused")
            #expect(!refused.text.contains("LifeSignal is listening"), "\(bad) must not start the server")
        }
    }
}
