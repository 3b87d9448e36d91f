//! What an external bot writes back is parsed at the edge: any line is either read or
//! refused with a typed `BotFailure::BadAnswer` quoting at most 200 characters of it.

use proptest::prelude::*;
use salpakan_ai::protocol::{BotFailure, move_from_answer, parse_answer, setup_from_answer};
use salpakan_engine::GameKind;

fn short_enough(f: &BotFailure) -> bool {
    match f {
        BotFailure::BadAnswer { answer, why } => answer.chars().count() <= 200 && !why.is_empty(),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn robust_bot_answers_are_read_or_refused_as_bad_answers(
        line in prop_oneof![
            any::<String>(),
            "\\{(\"(move|setup|x)\": ?(\"[a-z0-9-]{0,6}\"|null|\\{(\"[a-k][0-9]\":\"[A-Z]{1,3}\",?){0,3}\\}|[0-9]{1,3}|\\[\\]),?){0,3}\\}",
        ]
    ) {
        match parse_answer(&line) {
            Err(f) => prop_assert!(short_enough(&f), "{f:?}"),
            Ok(answer) => {
                for kind in GameKind::ALL {
                    match setup_from_answer(kind, &answer) {
                        Ok(Some(v)) => prop_assert!(v.is_object() && kind.has_setups()),
                        Ok(None) => {}
                        Err(f) => prop_assert!(short_enough(&f), "{f:?}"),
                    }
                }
                match move_from_answer(answer.clone()) {
                    Ok(m) => prop_assert_eq!(answer.get("move").and_then(|v| v.as_str()), Some(m.as_str())),
                    Err(f) => prop_assert!(short_enough(&f), "{f:?}"),
                }
            }
        }
    }
}

#[test]
fn a_setup_for_a_game_without_setups_or_not_an_object_is_a_bad_answer() {
    let a = parse_answer(r#"{"setup":{"a1":"FLG"}}"#).unwrap();
    assert!(setup_from_answer(GameKind::Generals, &a).unwrap().is_some());
    assert!(setup_from_answer(GameKind::Banqi, &a).is_err());
    let a = parse_answer(r#"{"setup":"a1:FLG"}"#).unwrap();
    assert!(setup_from_answer(GameKind::Stratego, &a).is_err());
    assert!(move_from_answer(parse_answer(r#"{"move":7}"#).unwrap()).is_err());
    assert!(parse_answer("[1]").is_err());
}
