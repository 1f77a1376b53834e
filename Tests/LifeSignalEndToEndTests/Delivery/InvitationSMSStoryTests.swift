import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 19 item 1's invitation SMS, end to end: someone invites a number that has no account
/// over HTTP; the SMS leaves through Twilio's Messages API (the stand-in on 127.0.0.1) with
/// the inviter's first name, the role and the `/i/` link; opening the link over HTTP shows the
/// invitation page. The browser's view of that page is `ResponderPageBrowserTests`'.
@Suite("Delivery: invitation SMS", .serialized)
struct InvitationSMSStoryTests {
    static let sid = "AC" + String(repeating: "7", count: 32), token = "invitation-auth-token"

    @Test(
        "invite-contact to a number with no account → SMS at Twilio with the /i/ link → the link opens the page; the daily cap is 429",
        arguments: Engine.allCases)
    func invitationReachesAStranger(engine: Engine) async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { twilio.stop() }
        let port = try DeliveryStoryTests.freePort()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let twilioConfiguration = TwilioConfiguration(
            accountSID: Self.sid, authToken: Self.token, sender: .number("+15005550006"),
            baseURL: try #require(URL(string: "http://127.0.0.1:\(twilio.port)")))
        let clock = ManualClock()
        let test = try await TestDatabases.backend(engine, clock: clock) { configuration in
            configuration.deliveryChannels = DeliveryChannels(sms: TwilioChannelSender(client: TwilioClient(configuration: twilioConfiguration)))
            let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: base)
            configuration.invitationLink = { links.invitationURL(invitationID: $0, now: clock.now) }
            configuration.invitationLimits = InvitationLimits(invitationsPerInviterPerDay: 3)
        }
        let server = try await TestServer.start(test.backend) {
            $0.port = port
            $0.publicURL = base
        }
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550008100")
        _ = try await test.backend.profiles.update(caller: .user(session.user.id), ProfileUpdate(firstName: "Ann", lastName: "Tester"))

        let invited = try await server.json(
            "POST", "/functions/v1/invite-contact", bearer: session.accessToken,
            ["phone": "+15550008001", "roles": ["responder"]])
        #expect(invited.status == 200, "\(invited.text)")
        let invitationText = try #require(invited.json?["invitationId"] as? String)
        let invitationID = try #require(UUID(uuidString: invitationText))

        let sent = try await twilio.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == "+15550008001" }
        #expect(sent.count == 1 && sent[0]["authorized"] as? Bool == true)
        let body = try #require(DeliveryStoryTests.fields(sent[0])["Body"])
        #expect(body.hasPrefix("LifeSignal: Invitation. Someone who has this number invited you to be their responder."), "\(body)")
        #expect(!body.contains("Ann"), "\(body)")
        #expect(!body.contains("Tester") && !body.contains("5550008100"), "only the first name: \(body)")
        let link = try #require(body.split(separator: " ").last.flatMap { URL(string: String($0)) })
        #expect(link.absoluteString.hasPrefix("\(base.absoluteString)/i/"), "\(body)")
        let verified = test.backend.responderLinks(baseURL: base).verifyInvitation(link.lastPathComponent, now: clock.now)
        #expect(verified?.invitationID == invitationID)

        // The ledger recorded it as sent, with Twilio's message id, to an address with no account.
        let rows = try await test.backend.database.query(
            SQL.raw(
                "SELECT user_id, status, provider_message_id FROM deliveries WHERE kind = 'invitation' AND address = '+15550008001'"))
        #expect(rows.count == 1)
        #expect(rows.first?.optionalUUID("user_id") == nil)
        #expect(rows.first?.optionalString("provider_message_id")?.hasPrefix("SM") == true)

        // The invitee opens the link: no key, no session, a plain GET.
        var request = URLRequest(url: link)
        request.timeoutInterval = 120
        let (page, response) = try await URLSession.shared.data(for: request)
        let html = String(decoding: page, as: UTF8.self)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(html.contains("Ann invited you to LifeSignal"), "\(html)")

        // A second invitation to the same number is refused and sends nothing more; the
        // inviter's third invitation of the day is taken, the fourth is 429 in the functions' format.
        let again = try await server.json(
            "POST", "/functions/v1/invite-contact", bearer: session.accessToken,
            ["phone": "+15550008001", "roles": ["responder"]])
        #expect(again.status == 409, "\(again.text)")
        for number in ["+15550008002", "+15550008003"] {
            let reply = try await server.json("POST", "/functions/v1/invite-contact", bearer: session.accessToken, ["phone": number, "roles": ["dependent"]])
            #expect(reply.status == 200, "\(reply.text)")
        }
        let capped = try await server.json(
            "POST", "/functions/v1/invite-contact", bearer: session.accessToken,
            ["phone": "+15550008004", "roles": ["responder"]])
        #expect(capped.status == 429, "\(capped.text)")
        #expect(capped.json?["code"] as? String == "rate_limited" && capped.json?["retry_after"] as? String == "86400")
        #expect(capped.header("Retry-After") == "86400")
        let third = try await twilio.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == "+15550008003" }
        #expect(DeliveryStoryTests.fields(third[0])["Body"]?.contains("invited you to be their dependent.") == true)
        #expect(try await twilio.records(atLeast: 0) { DeliveryStoryTests.fields($0)["To"] == "+15550008001" }.count == 1)
        #expect(try await test.backend.database.query("SELECT id FROM deliveries WHERE address = '+15550008004'").isEmpty)
        #expect(try await test.count("contact_invitations") == 3)
    }

    @Test("lifesignal serve with Twilio settings and a public URL sends the invitation SMS with its /i/ link, which opens the page; --invitations-per-day caps")
    func serveSendsInvitations() async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { twilio.stop() }
        let port = try DeliveryStoryTests.freePort()
        let base = "http://127.0.0.1:\(port)"
        let serve = try await ServeProcess(
            ["--invitations-per-day", "1"],
            environment: [
                "LIFESIGNAL_TEST_OTP": "+15550008200=246810", "LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid,
                "LIFESIGNAL_TWILIO_AUTH_TOKEN": Self.token, "LIFESIGNAL_TWILIO_FROM": "+15550001000",
                "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(twilio.port)", "LIFESIGNAL_PUBLIC_URL": base,
            ], port: port)
        defer { Task { await serve.stop() } }
        #expect(serve.value("anon key:") != nil, "\(serve.banner)")

        #expect(try await serve.post("/auth/v1/otp", ["phone": "+15550008200"]).0 == 200)
        let (verified, session) = try await serve.post("/auth/v1/verify", ["type": "sms", "phone": "+15550008200", "token": "246810"])
        #expect(verified == 200)
        let accessToken = try #require(session["access_token"] as? String)
        #expect(try await serve.post("/functions/v1/update-user-profile", bearer: accessToken, ["firstName": "Bea", "lastName": "Tester"]).0 == 200)
        let (invited, reply) = try await serve.post("/functions/v1/invite-contact", bearer: accessToken, ["phone": "+15550008201", "roles": ["responder"]])
        #expect(invited == 200, "\(reply)")

        let sent = try await twilio.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == "+15550008201" }
        let body = try #require(DeliveryStoryTests.fields(sent[0])["Body"])
        #expect(body.hasPrefix("LifeSignal: Invitation. Someone who has this number invited you to be their responder."), "\(body)")
        let link = try #require(body.split(separator: " ").last.flatMap { URL(string: String($0)) })
        #expect(link.absoluteString.hasPrefix("\(base)/i/"), "\(body)")
        var request = URLRequest(url: link)
        request.timeoutInterval = 120
        let (page, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("Bea invited you to LifeSignal"))

        // --invitations-per-day 1: the second invitation of the day is refused.
        let (capped, refusal) = try await serve.post("/functions/v1/invite-contact", bearer: accessToken, ["phone": "+15550008202", "roles": ["responder"]])
        #expect(capped == 429 && refusal["code"] as? String == "rate_limited", "\(refusal)")
    }
}
