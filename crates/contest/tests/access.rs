//! The access rule as a table: every kind of viewer against every kind of
//! resource, what it may see and change. A resource added to the model
//! without a row here fails `every_resource_kind_has_a_row`.

use spielleiter_contest::{
    Account, AccountKind, Action, InviteKind, MemberId, Resource, ResourceKind, Role, TeamId,
    Viewer, may,
};

/// The team a one-team resource belongs to, and the first of a two-team
/// resource's teams.
const T: TeamId = TeamId(1);
/// The second team of a two-team resource (the opponent, the challenged).
const U: TeamId = TeamId(2);
/// A team that has nothing to do with the resource.
const W: TeamId = TeamId(3);

/// T's teacher, whose notices the `Notices` row asks for.
const T_TEACHER: MemberId = MemberId(10);

/// The viewers of the table's columns, in order.
fn viewers() -> [(&'static str, Viewer); 7] {
    let member = |member, team, role| Viewer::Member {
        member: MemberId(member),
        team,
        role,
    };
    [
        ("anonymous", Viewer::Anonymous),
        ("T's teacher", member(T_TEACHER.0, T, Role::Teacher)),
        ("T's student", member(11, T, Role::Student)),
        ("U's teacher", member(20, U, Role::Teacher)),
        ("U's student", member(21, U, Role::Student)),
        ("W's teacher", member(30, W, Role::Teacher)),
        ("organiser", Viewer::Organiser { account: None }),
    ]
}

/// One row per resource (several for a kind whose fields change the
/// answer). Each cell is what the column's viewer may do: `V` view, `C`
/// change, `-` not. Columns: anonymous, T's teacher, T's student, U's
/// teacher, U's student, W's teacher (an outsider), organiser.
fn table() -> Vec<(Resource, [&'static str; 7])> {
    vec![
        (Resource::Public, ["V-", "V-", "V-", "V-", "V-", "V-", "V-"]),
        (
            Resource::RunningGames { open: true },
            ["VC", "VC", "VC", "VC", "VC", "VC", "VC"],
        ),
        (
            Resource::RunningGames { open: false },
            ["--", "--", "--", "--", "--", "--", "VC"],
        ),
        (
            Resource::GameLogs { open: true },
            ["V-", "V-", "V-", "V-", "V-", "V-", "V-"],
        ),
        (
            Resource::GameLogs { open: false },
            ["--", "--", "--", "--", "--", "--", "V-"],
        ),
        (
            Resource::Account { member: T_TEACHER },
            ["--", "VC", "--", "--", "--", "--", "--"],
        ),
        (
            Resource::ContestPages,
            ["V-", "V-", "V-", "V-", "V-", "V-", "VC"],
        ),
        (
            Resource::OrganiserPages,
            ["--", "--", "--", "--", "--", "--", "VC"],
        ),
        (
            Resource::TeamPages { team: T },
            ["--", "VC", "V-", "--", "--", "--", "VC"],
        ),
        (
            Resource::Members { team: T },
            ["--", "VC", "V-", "--", "--", "--", "VC"],
        ),
        (
            Resource::Invite {
                team: T,
                kind: InviteKind::Teacher,
            },
            ["--", "--", "--", "--", "--", "--", "VC"],
        ),
        (
            Resource::Invite {
                team: T,
                kind: InviteKind::Student,
            },
            ["--", "VC", "--", "--", "--", "--", "VC"],
        ),
        (
            Resource::Invite {
                team: T,
                kind: InviteKind::PasswordReset { member: T_TEACHER },
            },
            ["--", "--", "--", "--", "--", "--", "VC"],
        ),
        (
            Resource::Notices { member: T_TEACHER },
            ["--", "VC", "--", "--", "--", "--", "--"],
        ),
        (
            Resource::Versions { team: T },
            ["--", "VC", "VC", "--", "--", "--", "V-"],
        ),
        (
            Resource::Upload { team: T },
            ["--", "V-", "V-", "--", "--", "--", "V-"],
        ),
        (
            Resource::Build { team: T },
            ["--", "V-", "V-", "--", "--", "--", "V-"],
        ),
        (
            Resource::TestGame { team: T },
            ["--", "V-", "V-", "--", "--", "--", "V-"],
        ),
        (
            Resource::ProgramLog { team: T },
            ["--", "V-", "V-", "--", "--", "--", "V-"],
        ),
        (
            Resource::WireLog { team: T },
            ["--", "V-", "V-", "--", "--", "--", "V-"],
        ),
        (
            Resource::Challenge {
                challenger: T,
                challenged: U,
            },
            ["--", "VC", "VC", "VC", "VC", "--", "V-"],
        ),
        (
            Resource::FriendlyGame { teams: [T, U] },
            ["--", "V-", "V-", "V-", "V-", "--", "V-"],
        ),
        (
            Resource::Encounter {
                teams: [T, U],
                published: false,
            },
            ["--", "V-", "V-", "V-", "V-", "--", "VC"],
        ),
        (
            Resource::Encounter {
                teams: [T, U],
                published: true,
            },
            ["V-", "V-", "V-", "V-", "V-", "V-", "VC"],
        ),
        (
            Resource::Standings { published: false },
            ["--", "--", "--", "--", "--", "--", "V-"],
        ),
        (
            Resource::Standings { published: true },
            ["V-", "V-", "V-", "V-", "V-", "V-", "V-"],
        ),
    ]
}

#[test]
fn every_resource_kind_has_a_row() {
    let rows = table();
    for kind in ResourceKind::ALL {
        assert!(
            rows.iter().any(|(resource, _)| resource.kind() == *kind),
            "{kind:?} has no row in the access table"
        );
    }
}

#[test]
fn the_access_table() {
    let viewers = viewers();
    let mut wrong = Vec::new();
    for (resource, cells) in table() {
        for ((name, viewer), cell) in viewers.iter().zip(cells) {
            let actual = format!(
                "{}{}",
                if may(viewer, Action::View, &resource) {
                    'V'
                } else {
                    '-'
                },
                if may(viewer, Action::Change, &resource) {
                    'C'
                } else {
                    '-'
                },
            );
            if actual != cell {
                wrong.push(format!(
                    "{resource:?} for {name}: {actual}, the table says {cell}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Whatever its role, a member of one team sees nothing private of
/// another: the rule of §33 over every team-owned resource.
#[test]
fn no_team_sees_another_teams_private_things() {
    let outsider = Viewer::Member {
        member: MemberId(99),
        team: W,
        role: Role::Teacher,
    };
    let private = [
        Resource::TeamPages { team: T },
        Resource::Members { team: T },
        Resource::Versions { team: T },
        Resource::Upload { team: T },
        Resource::Build { team: T },
        Resource::TestGame { team: T },
        Resource::ProgramLog { team: T },
        Resource::WireLog { team: T },
        Resource::Notices { member: T_TEACHER },
        Resource::FriendlyGame { teams: [T, U] },
        Resource::Challenge {
            challenger: T,
            challenged: U,
        },
        Resource::Encounter {
            teams: [T, U],
            published: false,
        },
    ];
    for resource in private {
        for action in [Action::View, Action::Change] {
            assert!(
                !may(&outsider, action, &resource),
                "{resource:?} {action:?}"
            );
            assert!(
                !may(&Viewer::Anonymous, action, &resource),
                "{resource:?} {action:?}"
            );
        }
    }
}

#[test]
fn disabled_accounts_and_teams_are_anonymous() {
    let account = |enabled, kind| Account {
        id: MemberId(5),
        display_name: "Ada".into(),
        kind,
        enabled,
    };
    let member = AccountKind::Member {
        team: T,
        role: Role::Teacher,
    };
    let all_enabled = |_| true;
    assert_eq!(Viewer::of(None, all_enabled), Viewer::Anonymous);
    assert_eq!(
        Viewer::of(Some(&account(true, member)), all_enabled),
        Viewer::Member {
            member: MemberId(5),
            team: T,
            role: Role::Teacher
        }
    );
    assert_eq!(
        Viewer::of(Some(&account(false, member)), all_enabled),
        Viewer::Anonymous
    );
    assert_eq!(
        Viewer::of(Some(&account(true, member)), |team| team != T),
        Viewer::Anonymous
    );
    assert_eq!(
        Viewer::of(Some(&account(true, AccountKind::Organiser)), all_enabled),
        Viewer::Organiser {
            account: Some(MemberId(5))
        }
    );
    // An organiser's own account is theirs, not the administrator's.
    let organiser = Viewer::Organiser {
        account: Some(MemberId(5)),
    };
    let mine = Resource::Account {
        member: MemberId(5),
    };
    assert!(may(&organiser, Action::Change, &mine));
    assert!(!may(
        &Viewer::Organiser { account: None },
        Action::View,
        &mine
    ));
    assert_eq!(
        Viewer::of(Some(&account(false, AccountKind::Organiser)), all_enabled),
        Viewer::Anonymous
    );
}
