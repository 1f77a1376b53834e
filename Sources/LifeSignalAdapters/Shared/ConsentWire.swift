import Foundation
import LifeSignalDomain
import LifeSignalFunctions

// The replies of the consent functions (docs/security.md, "Consent") read into the domain:
// `get-qr-code` and `reset-qr-code`, `update-contact-roles` with its pending request, and the
// role requests of `get-contacts`. The shapes are the backend's, defined once.

extension QRCode {
    init(wire: QRCodeResponse) throws {
        self.init(id: try WireParse.uuid(wire.qrCodeId), expiresAt: try WireParse.date(wire.expiresAt))
    }
}

extension RoleRequest {
    init(wire: RoleRequestResponse) throws {
        self.init(
            id: try WireParse.uuid(wire.id), requesterID: try WireParse.userID(wire.requesterId), requesterName: wire.requesterName,
            ownerID: try WireParse.userID(wire.ownerId), ownerName: wire.ownerName, createdAt: try WireParse.date(wire.createdAt))
    }
}

extension RoleChangeOutcome {
    init(wire: RoleChangeResponse) throws {
        self.init(contact: try ContactSummary(wire: wire.contact), pendingRequest: try wire.pendingRequest.map(RoleRequest.init(wire:)))
    }
}

extension ContactList {
    init(wire: GetContactsResponse) throws {
        self.init(
            contacts: try wire.contacts.map(ContactSummary.init(wire:)),
            sentInvitations: try wire.sentInvitations.map(InvitationSummary.init(wire:)),
            receivedInvitations: try wire.receivedInvitations.map(InvitationSummary.init(wire:)),
            receivedRoleRequests: try wire.roleRequests.received.map(RoleRequest.init(wire:)),
            sentRoleRequests: try wire.roleRequests.sent.map(RoleRequest.init(wire:)))
    }
}
