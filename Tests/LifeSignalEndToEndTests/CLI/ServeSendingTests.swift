import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 31 through `lifesignal serve` as an operator runs it, with real peers on 127.0.0.1: a
/// Twilio stand-in, a captcha `siteverify` stand-in, aiosmtpd, and supabase-py.
@Suite("lifesignal serve: what leaves by SMS and email", .serialized)
struct ServeSendingTests {
    static let sid = "AC00000000000000000000000000000031", token = "serve-31-token"

    static func twilioEnvironment(_ twilio: StandInProcess) -> [String: String] {
        [
            "LIFESIGNAL_TWILIO_ACCOUNT_SID": sid, "LIFESIGNAL_TWILIO_AUTH_TOKEN": token,
            "LIFESIGNAL_TWILIO_FROM": "+15550001000", "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(twilio.port)",
        ]
    }

    static func texts(_ twilio: StandInProcess, to number: String) async throws -> [[String: Any]] {
        try await twilio.records(atLeast: 0) { DeliveryStoryTests.fields($0)["To"] == number }
    }

    @Test("a captcha guards codes and sign-up, SMS goes only to the sending number's country, /metrics only to the operator")
    func captchaCountriesMetrics() async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        let captcha = try await StandInProcess.start("captcha_standin.py", arguments: ["captcha-secret"])
        defer { for standIn in [twilio, captcha] { standIn.stop() } }
        let metricsPort = try DeliveryStoryTests.freePort()
        var environment = Self.twilioEnvironment(twilio)
        environment["LIFESIGNAL_CAPTCHA_PROVIDER"] = "turnstile"
        environment["LIFESIGNAL_CAPTCHA_SECRET"] = "captcha-secret"
        environment["LIFESIGNAL_CAPTCHA_URL"] = "http://127.0.0.1:\(captcha.port)/siteverify"
        let serve = try await ServeProcess(["--metrics-port", "\(metricsPort)"], environment: environment)
        defer { Task { await serve.stop() } }
        let summary = try #require(serve.value("paid messages:"))
        #expect(summary.contains("SMS to US") && summary.contains("captcha"), "\(serve.banner)")
        #expect(!serve.banner.contains("captcha-secret"))

        let (bare, refusal) = try await serve.post("/auth/v1/otp", ["phone": "+15550002031"])
        #expect(bare == 400 && refusal["code"] as? String == "captcha_failed", "\(refusal)")
        let solved = ["phone": "+15550002031", "gotrue_meta_security": ["captcha_token": "pass-1"]] as [String: Any]
        #expect(try await serve.post("/auth/v1/otp", solved).0 == 200)
        _ = try await twilio.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == "+15550002031" }
        // A used captcha is no captcha.
        let again = try await serve.post("/auth/v1/otp", ["phone": "+15550002032", "gotrue_meta_security": ["captcha_token": "pass-1"]])
        #expect(again.0 == 400 && again.1["code"] as? String == "captcha_failed")
        let signUp = try await serve.post("/auth/v1/signup", ["email": "eve@example.com", "password": "correct horse"])
        #expect(signUp.0 == 400 && signUp.1["code"] as? String == "captcha_failed")
        let abroad = try await serve.post("/auth/v1/otp", ["phone": "+447700900123", "gotrue_meta_security": ["captcha_token": "pass-2"]])
        #expect(abroad.0 == 400 && (abroad.1["msg"] as? String ?? abroad.1["message"] as? String ?? "").contains("GB"), "\(abroad)")
        let jamaica = try await serve.post("/auth/v1/otp", ["phone": "+18765550100", "gotrue_meta_security": ["captcha_token": "pass-3"]])
        #expect(jamaica.0 == 400, "+1 876 is Jamaica, not the US: \(jamaica)")
        #expect(try await Self.texts(twilio, to: "+447700900123").isEmpty)
        #expect(try await Self.texts(twilio, to: "+18765550100").isEmpty)
        // A token longer than any provider's is refused before it is sent on.
        let long = try await serve.post(
            "/auth/v1/otp", ["phone": "+15550002033", "gotrue_meta_security": ["captcha_token": "pass-" + String(repeating: "x", count: 9000)]])
        #expect(long.0 == 400 && long.1["code"] as? String == "captcha_failed", "\(long)")
        let seen = try await captcha.records(atLeast: 4) { _ in true }
        #expect(seen.allSatisfy { $0["secret"] as? String == "right" })
        #expect(seen.count == 4, "pass-1 twice, pass-2 and pass-3; the long token never reached the provider")

        // /metrics: not on the public port, on the operator's own listener.
        let base = try #require(serve.baseURL)
        let (_, publicAnswer) = try await URLSession.shared.data(from: try #require(URL(string: base + "/metrics")))
        #expect((publicAnswer as? HTTPURLResponse)?.statusCode == 404)
        let (text, own) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(metricsPort)/metrics")))
        #expect((own as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: text, as: UTF8.self).contains(#"delivery_budget_limit{channel="sms"} 2000"#))
        #expect(serve.value("metrics:") == "http://127.0.0.1:\(metricsPort)/metrics")
    }

    @Test("email sign-up is confirmed by a mailed code and an email change at the new address, through supabase-py", arguments: Engine.allCases)
    func emailConfirmation(engine: Engine) async throws {
        let python = try PythonScript.interpreter()
        let smtp = try await SMTPTestServer.start(mode: "plain")
        defer { smtp.stop() }
        let database: String? = engine == .postgres ? try ServeProcess.postgresURL(of: try await TestDatabases.backend(.postgres)) : nil
        let serve = try await ServeProcess(
            ["--metrics-port", "0"],
            environment: [
                "LIFESIGNAL_SMTP_HOST": "127.0.0.1", "LIFESIGNAL_SMTP_PORT": "\(smtp.port)", "LIFESIGNAL_SMTP_SECURITY": "none",
                "LIFESIGNAL_SMTP_FROM": "alerts@lifesignal.test",
            ], database: database)
        defer { Task { await serve.stop() } }
        let script = PythonScript.check.deletingLastPathComponent().appendingPathComponent("email_confirmation_check.py")
        let common = ["--url", try #require(serve.baseURL), "--anon-key", try #require(serve.value("anon key:")), "--password", "correct horse"]
        let email = "ada.\(engine)@example.org"
        let moved = "ada.moved.\(engine)@example.org"
        func step(_ arguments: [String]) async throws -> PythonScript.Outcome {
            let run = try await PythonScript.run(python, script, arguments: arguments + common, timeout: .seconds(120))
            #expect(run.status == 0 && !run.timedOut, "\(arguments.first ?? "")\n\(run.transcript)")
            return run
        }
        func code(to address: String, number: Int) async throws -> String {
            let mails = try await smtp.records(atLeast: number) { ($0["rcpt_tos"] as? [String]) == [address] }
            let text = try #require(mails[number - 1]["text"] as? String)
            return try #require(text.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init), "\(text)")
        }

        let signUp = try await step(["signup", "--email", email])
        #expect(signUp.stdout.contains("OK sign-in refused email_not_confirmed"), "\(signUp.transcript)")
        let verify = try await step(["verify", "--email", email, "--new-email", moved, "--code", try await code(to: email, number: 1)])
        #expect(verify.stdout.contains("OK update_user waits for the new address"), "\(verify.transcript)")
        // The old address is told, with the new one masked; the new one gets its code.
        let notice = try await smtp.records(atLeast: 2) { ($0["rcpt_tos"] as? [String]) == [email] }
        #expect((notice[1]["text"] as? String)?.contains("a***@example.org") == true, "\(notice[1])")
        #expect((notice[1]["text"] as? String)?.contains(moved) == false)
        let change = try await step(["change", "--email", email, "--new-email", moved, "--code", try await code(to: moved, number: 1)])
        #expect(change.stdout.contains("OK the account moved"), "\(change.transcript)")
        // Nothing but codes and the notice went to either address.
        #expect(try await smtp.records(atLeast: 0) { _ in true }.count == 3)
    }
}
