import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Testing

/// Replies that carry what the screen shows, so the client does not read again (issue 20).
@Suite("Replies in one round trip")
struct OneRoundTripTests {
    @Test("check-in's reply carries the time, the deadline and the interval, and reads back as the same result")
    func checkInReplyRoundTrips() throws {
        let result = CheckInResult(
            checkedInAt: Date(timeIntervalSince1970: 1_800_000_000), deadline: Date(timeIntervalSince1970: 1_800_007_200),
            interval: try CheckInInterval(seconds: 7200))
        let wire = try JSONDecoder().decode(CheckInResponse.self, from: try JSONEncoder().encode(CheckInResponse(result)))
        #expect(wire.checkInInterval == 7200)
        #expect(try wire.result() == result)
        #expect(try wire.result().status == CheckInStatus(lastCheckIn: result.checkedInAt, interval: result.interval))
    }

    @Test("a check-in reply that breaks the contract is an internal error, not a wrong screen")
    func brokenCheckInReplyIsRefused() throws {
        var wire = CheckInResponse(CheckInResult(checkedInAt: Date(), deadline: Date(), interval: .default))
        wire.checkInInterval = -5
        #expect(throws: DomainError.self) { try wire.result() }
        wire = CheckInResponse(CheckInResult(checkedInAt: Date(), deadline: Date(), interval: .default))
        wire.nextCheckInTime = "tomorrow"
        #expect(throws: DomainError.self) { try wire.result() }
    }

    @Test("invite-contact's reply carries the whole invitation; a reply from an older server without it still decodes")
    func inviteReplyCarriesTheInvitation() throws {
        let invitation = InvitationSummary(
            id: UUID(), inviterID: UserID(UUID()), inviterName: "Ada", inviteePhone: "+15550001234",
            roles: try ContactRoles(isResponder: true, isDependent: false), status: .pending, sentAt: Date(timeIntervalSince1970: 1_800_000_000))
        let reply = InviteContactResponse(invitation)
        let decoded = try JSONDecoder().decode(InviteContactResponse.self, from: try JSONEncoder().encode(reply))
        #expect(decoded.invitation == InvitationResponse(invitation))
        #expect(decoded.invitationId == invitation.id.uuidString.lowercased())
        let old = #"{"success":true,"invitationId":"\#(invitation.id.uuidString.lowercased())","sentAt":"2027-01-15T08:00:00.000000+00:00"}"#
        #expect(try JSONDecoder().decode(InviteContactResponse.self, from: Data(old.utf8)).invitation == nil)
    }
}
