import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    static let contactFunctions: [Registration] =
        roleRequestFunctions + [
            handle(CloudFunctions.lookupQRCode) { backend, caller, request in
                let owner = try await backend.contacts.lookUpQRCode(caller: caller, qrCodeID: try WireField.uuid(request.qrCodeId, field: "qrCodeId"))
                return LookupQRCodeResponse(success: true, userId: owner.userID.description, name: owner.name)
            },
            handle(CloudFunctions.getQRCode) { backend, caller, _ in
                QRCodeResponse(try await backend.contacts.qrCode(caller: caller))
            },
            handle(CloudFunctions.resetQRCode) { backend, caller, _ in
                QRCodeResponse(try await backend.contacts.newQRCode(caller: caller))
            },
            handle(CloudFunctions.addContactByQR) { backend, caller, request in
                let qr = try WireField.uuid(request.qrCodeId, field: "qrCodeId")
                let roles = try ContactRoles(isResponder: request.isResponder, isDependent: request.isDependent)
                let contact = try await backend.contacts.addContact(caller: caller, qrCodeID: qr, roles: roles)
                return ContactChangeResponse(success: true, contactId: contact.id.description, contact: ContactResponse(contact))
            },
            handle(CloudFunctions.updateContactRoles) { backend, caller, request in
                let id = try WireField.userID(request.contactId, field: "contactId")
                let roles = try ContactRoles(isResponder: request.isResponder, isDependent: request.isDependent)
                return RoleChangeResponse(try await backend.contacts.changeRoles(caller: caller, contact: id, roles: roles))
            },
            handle(CloudFunctions.removeContact) { backend, caller, request in
                try await backend.contacts.removeContact(caller: caller, contact: try WireField.userID(request.contactId, field: "contactId"))
                return SuccessResponse()
            },
            handle(CloudFunctions.getContacts) { backend, caller, _ in
                let list = try await backend.contacts.contacts(caller: caller)
                return GetContactsResponse(
                    contacts: list.contacts.map(ContactResponse.init), sentInvitations: list.sentInvitations.map(InvitationResponse.init),
                    receivedInvitations: list.receivedInvitations.map(InvitationResponse.init),
                    roleRequests: RoleRequestsResponse(
                        received: list.receivedRoleRequests.map(RoleRequestResponse.init), sent: list.sentRoleRequests.map(RoleRequestResponse.init)))
            },
            handle(CloudFunctions.inviteContact) { backend, caller, request in
                let roles = try ContactRoles(names: request.roles)
                let invitation = try await backend.contacts.invite(caller: caller, phone: request.phone, roles: roles)
                return InviteContactResponse(invitation)
            },
            handle(CloudFunctions.acceptInvitation) { backend, caller, request in
                let contact = try await backend.contacts.acceptInvitation(
                    caller: caller, invitationID: try WireField.uuid(request.invitationId, field: "invitationId"))
                return AcceptInvitationResponse(success: true, contact: ContactResponse(contact))
            },
            handle(CloudFunctions.declineInvitation) { backend, caller, request in
                try await backend.contacts.declineInvitation(caller: caller, invitationID: try WireField.uuid(request.invitationId, field: "invitationId"))
                return SuccessResponse()
            },
        ]
}
