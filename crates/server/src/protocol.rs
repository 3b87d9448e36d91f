//! The WebSocket protocol's messages, typed (see `docs/protocol.md`).
//!
//! - What clients send is parsed once, here: [`parse_request`] reads the envelope (`"v":1`,
//!   the `id` to echo), then the message as a [`ClientMsg`] (a `#[serde(tag = "t")]` enum),
//!   then checks its fields into a [`Request`], with the same sentences for every mistake.
//! - What the server sends is written here too: [`frame`] writes any [`ServerMsg`] with the
//!   `"v":1` envelope and the `id` echo; the frames of the hot path (a game's `event`,
//!   `legal` and `sync`, sent to many recipients) are written directly from pre-serialised
//!   JSON text by [`event_frame`], [`legal_frame`] and [`sync_frame`], once per view and
//!   shared by every recipient of that view.
//!
//! A [`Frame`] is the WebSocket text itself (reference-counted bytes): a frame sent to many
//! recipients is built once, each recipient's queue holds a reference, and the socket
//! writes it without another copy.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::game::{Act, SetupChoice};

/// One frame's text as the socket writes it; cloning it shares it.
pub(crate) type Frame = axum::extract::ws::Utf8Bytes;

/// The protocol version every message carries as `"v"`.
pub(crate) const VERSION: u64 = 1;

/// The message types a client may send, for the error about an unknown one.
const TYPES: &str = "hello, lobby, unlobby, join, leave, setup, move, resign, draw_offer, \
draw_accept, draw_decline, rematch, chat, claim, ping";

/// A field as a client sent it: absent, `null`, of the expected type, or of another type
/// (kept, so that the error can name the field).
#[derive(Debug, Default)]
pub(crate) enum Field<T> {
    /// Not sent.
    #[default]
    Absent,
    /// Sent as `null`.
    Null,
    /// Sent, of the expected type.
    Given(T),
    /// Sent, of another type.
    Wrong,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The fields of a `#[serde(tag = "t")]` enum are read from the message already
        // buffered by serde: a value of the wrong type is skipped whole, and the rest of
        // the message still reads.
        Ok(match Option::<T>::deserialize(d) {
            Ok(Some(v)) => Field::Given(v),
            Ok(None) => Field::Null,
            Err(_) => Field::Wrong,
        })
    }
}

impl<T> Field<T> {
    /// The value of a field every message of its type needs.
    fn need(self, name: &str) -> Result<T, Error> {
        match self {
            Field::Given(v) => Ok(v),
            _ => Err(Error::BadRequest(format!(
                "this message needs \"{name}\" (a string)"
            ))),
        }
    }

    /// The value of an optional field (`null` is absent); `wrong` when of another type.
    fn optional(self, wrong: &str) -> Result<Option<T>, Error> {
        match self {
            Field::Given(v) => Ok(Some(v)),
            Field::Absent | Field::Null => Ok(None),
            Field::Wrong => Err(Error::BadRequest(wrong.into())),
        }
    }
}

/// A client's message as sent (its fields as [`Field`]s), by its `"t"`.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
#[allow(missing_docs)] // Each variant is the message of that name in docs/protocol.md.
pub(crate) enum ClientMsg {
    Ping {},
    Hello {
        #[serde(default)]
        token: Field<String>,
    },
    Lobby {},
    Unlobby {},
    Join {
        #[serde(default)]
        game: Field<String>,
        #[serde(default)]
        seat_token: Field<String>,
        #[serde(default)]
        since: Field<u64>,
    },
    Leave {
        #[serde(default)]
        game: Field<String>,
    },
    Setup {
        #[serde(default)]
        game: Field<String>,
        #[serde(default)]
        setup: Field<serde_json::Map<String, Value>>,
        #[serde(default)]
        random: Field<bool>,
        #[serde(default)]
        bot: Field<String>,
    },
    Move {
        #[serde(default)]
        game: Field<String>,
        #[serde(default, rename = "move")]
        mv: Field<String>,
    },
    Resign {
        #[serde(default)]
        game: Field<String>,
    },
    DrawOffer {
        #[serde(default)]
        game: Field<String>,
    },
    DrawAccept {
        #[serde(default)]
        game: Field<String>,
    },
    DrawDecline {
        #[serde(default)]
        game: Field<String>,
    },
    Rematch {
        #[serde(default)]
        game: Field<String>,
    },
    Chat {
        #[serde(default)]
        game: Field<String>,
        #[serde(default)]
        text: Field<String>,
    },
    Claim {
        #[serde(default)]
        game: Field<String>,
    },
}

/// A client's request, checked: what the connection acts on.
#[derive(Debug)]
pub(crate) enum Request {
    /// `ping`.
    Ping,
    /// `hello`: this guest's (or API) token; none to use the session cookie of the
    /// WebSocket's upgrade request.
    Hello {
        /// The guest or API token.
        token: Option<String>,
    },
    /// `lobby`: a snapshot, then updates.
    Lobby,
    /// `unlobby`: no more lobby updates.
    Unlobby,
    /// `join`: follow a game, as a seat (with its token) or as a spectator.
    Join {
        /// The game.
        game: String,
        /// The seat token, none for a spectator.
        seat_token: Option<String>,
        /// The last version seen.
        since: Option<u64>,
    },
    /// `leave`: stop following a game.
    Leave {
        /// The game.
        game: String,
    },
    /// A seat's action in a game (`setup`, `move`, `resign`, ...).
    Act {
        /// The game.
        game: String,
        /// What the seat does.
        act: Act,
    },
}

impl ClientMsg {
    /// Checks the fields, in the order the protocol names them.
    fn check(self) -> Result<Request, Error> {
        let act = |game: Field<String>, act: Act| -> Result<Request, Error> {
            Ok(Request::Act {
                game: game.need("game")?,
                act,
            })
        };
        Ok(match self {
            ClientMsg::Ping {} => Request::Ping,
            ClientMsg::Hello { token } => Request::Hello {
                token: token.optional("\"token\" is a string")?,
            },
            ClientMsg::Lobby {} => Request::Lobby,
            ClientMsg::Unlobby {} => Request::Unlobby,
            ClientMsg::Join {
                game,
                seat_token,
                since,
            } => Request::Join {
                game: game.need("game")?,
                seat_token: seat_token.optional("\"seat_token\" is a string")?,
                since: since.optional("\"since\" is the last version seen, a whole number")?,
            },
            ClientMsg::Leave { game } => Request::Leave {
                game: game.need("game")?,
            },
            ClientMsg::Setup {
                game,
                setup,
                random,
                bot,
            } => {
                let game = game.need("game")?;
                let choice = match (setup, bot, random) {
                    (Field::Given(s), _, _) => SetupChoice::Given(Value::Object(s)),
                    (Field::Null | Field::Wrong, _, _) => {
                        return Err(Error::BadRequest(
                            "\"setup\" is an object of square → piece code".into(),
                        ));
                    }
                    (Field::Absent, Field::Given(b), _) => SetupChoice::Bot(b),
                    (Field::Absent, _, Field::Given(true)) => SetupChoice::Random,
                    _ => {
                        return Err(Error::BadRequest(
                            "send \"setup\":{square: piece}, \"random\":true or \"bot\":\"<name>\""
                                .into(),
                        ));
                    }
                };
                Request::Act {
                    game,
                    act: Act::Setup(choice),
                }
            }
            ClientMsg::Move { game, mv } => {
                let game = game.need("game")?;
                Request::Act {
                    game,
                    act: Act::Move(mv.need("move")?),
                }
            }
            ClientMsg::Resign { game } => act(game, Act::Resign)?,
            ClientMsg::DrawOffer { game } => act(game, Act::DrawOffer)?,
            ClientMsg::DrawAccept { game } => act(game, Act::DrawAccept)?,
            ClientMsg::DrawDecline { game } => act(game, Act::DrawDecline)?,
            ClientMsg::Rematch { game } => act(game, Act::Rematch)?,
            ClientMsg::Chat { game, text } => {
                let game = game.need("game")?;
                Request::Act {
                    game,
                    act: Act::Chat(text.need("text")?),
                }
            }
            ClientMsg::Claim { game } => act(game, Act::Claim)?,
        })
    }
}

/// The envelope of a client's message: its version, its type and the `id` to echo.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    v: Option<Value>,
    #[serde(default)]
    t: Option<Value>,
    #[serde(default)]
    id: Option<Value>,
}

/// Parses one text message: its `id` (echoed in the answer, also with an error, when it
/// could be read) and the checked request.
///
/// # Errors
/// Bad JSON, not an object, another version, an unknown type or a bad field.
pub(crate) fn parse_request(text: &str) -> (Option<Value>, Result<Request, Error>) {
    if !text.trim_start().starts_with('{') {
        let e = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => Error::BadRequest("a message is a JSON object".into()),
            Err(e) => Error::BadRequest(format!("bad JSON: {e}")),
        };
        return (None, Err(e));
    }
    let env: Envelope = match serde_json::from_str(text) {
        Ok(env) => env,
        Err(e) => return (None, Err(Error::BadRequest(format!("bad JSON: {e}")))),
    };
    let r = parse_message(text, &env);
    (env.id, r)
}

/// The message of a well-formed envelope.
fn parse_message(text: &str, env: &Envelope) -> Result<Request, Error> {
    if env.v.as_ref().and_then(Value::as_u64) != Some(VERSION) {
        return Err(Error::BadRequest(
            "unsupported or missing protocol version: send \"v\":1".into(),
        ));
    }
    let Some(Value::String(t)) = &env.t else {
        return Err(Error::BadRequest(
            "this message needs \"t\" (a string)".into(),
        ));
    };
    match serde_json::from_str::<ClientMsg>(text) {
        Ok(m) => m.check(),
        Err(e) if TYPES.split(", ").any(|k| k == t) => {
            Err(Error::BadRequest(format!("bad message: {e}")))
        }
        Err(_) => Err(Error::BadRequest(format!(
            "unknown message type {:?}; known: {TYPES}",
            t.chars().take(32).collect::<String>()
        ))),
    }
}

/// The `id` of a message, read without building the rest of it (for errors about the
/// message as a whole: too large, too many).
pub(crate) fn request_id(text: &str) -> Option<Value> {
    #[derive(Deserialize)]
    struct IdOnly {
        #[serde(default)]
        id: Option<Value>,
    }
    serde_json::from_str::<IdOnly>(text).ok()?.id
}

/// Who a `joined` answer says the connection follows the game as: a seat's index or
/// `"spectator"`.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum JoinedAs {
    /// A seat, by index.
    Seat(usize),
    /// A spectator (written `"spectator"`).
    Spectator(&'static str),
}

/// A message from the server (other than the pre-serialised game frames), by its `"t"`.
#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
#[allow(missing_docs)] // Each variant is the message of that name in docs/protocol.md.
pub(crate) enum ServerMsg<'a> {
    Pong,
    Welcome {
        user: &'a str,
        name: &'a str,
    },
    Lobby {
        seeks: &'a [Value],
        games: &'a [Value],
    },
    Ack {
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        ver: Option<u64>,
    },
    Joined {
        game: &'a str,
        #[serde(rename = "as")]
        as_: JoinedAs,
    },
    Error {
        error: String,
    },
    Seat {
        game: &'a str,
        seat: &'a str,
        seat_token: &'a str,
    },
    Presence {
        game: &'a str,
        seat: &'a str,
        online: bool,
    },
    Notice {
        game: &'a str,
        notice: &'a str,
        text: &'a str,
    },
    SeekAdded {
        seek: &'a Value,
    },
    SeekRemoved {
        seek: &'a str,
    },
    GameAdded {
        game: &'a Value,
    },
    GameRemoved {
        game: &'a str,
    },
}

/// The one frame writer: `msg` in its envelope, `{"v":1,"t":...,<fields>}`, with the
/// request's `id` last when it had one.
pub(crate) fn frame(msg: &ServerMsg<'_>, id: Option<&Value>) -> Frame {
    let mut out = Vec::with_capacity(96);
    out.extend_from_slice(br#"{"v":1,"#);
    let at = out.len();
    serde_json::to_writer(&mut out, msg).expect("server messages serialize");
    // `msg` is an object (`{"t":...}`): its opening brace is the envelope's.
    out.remove(at);
    if let Some(id) = id {
        out.pop();
        out.extend_from_slice(br#","id":"#);
        serde_json::to_writer(&mut out, id).expect("a JSON value serializes");
        out.push(b'}');
    }
    String::from_utf8(out)
        .expect("serde_json writes UTF-8")
        .into()
}

/// An error as a frame.
pub(crate) fn error_frame(e: &Error, id: Option<&Value>) -> Frame {
    frame(
        &ServerMsg::Error {
            error: e.to_string(),
        },
        id,
    )
}

/// A game's event frame, `{"v":1,"t":"event","game":<id>,"ver":<ver>,"e":<e>}`, from the
/// game's id as JSON text and the recipient's view `e` as JSON text (written once per view
/// and shared by every recipient of it).
pub(crate) fn event_frame(id_json: &str, ver: u64, e: &str) -> Frame {
    use std::fmt::Write;
    let mut f = String::with_capacity(e.len() + id_json.len() + 48);
    let _ = write!(
        f,
        r#"{{"v":1,"t":"event","game":{id_json},"ver":{ver},"e":{e}}}"#
    );
    f.into()
}

/// The seat to move's legal moves, `{"v":1,"t":"legal","game":..,"ver":..,"moves":[..]}`,
/// from the moves as a JSON array's text.
pub(crate) fn legal_frame(id_json: &str, ver: u64, moves_json: &str) -> Frame {
    format!(r#"{{"v":1,"t":"legal","game":{id_json},"ver":{ver},"moves":{moves_json}}}"#).into()
}

/// A full view, `{"v":1,"t":"sync","game":..,"ver":..,"state":{..}}`.
pub(crate) fn sync_frame(id_json: &str, ver: u64, state: &Value) -> Frame {
    format!(r#"{{"v":1,"t":"sync","game":{id_json},"ver":{ver},"state":{state}}}"#).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        parse_request(text).1.expect_err("refused").to_string()
    }

    #[test]
    fn a_request_is_parsed_into_its_typed_variant_with_its_id() {
        let (id, r) = parse_request(r#"{"v":1,"t":"move","game":"g1","move":"e3-e4","id":7}"#);
        assert_eq!(id, Some(Value::from(7)));
        let r = r.unwrap();
        assert!(
            matches!(r, Request::Act { game, act: Act::Move(m) } if game == "g1" && m == "e3-e4")
        );
        let r = parse_request(r#"{"v":1,"t":"join","game":"g","seat_token":null}"#)
            .1
            .unwrap();
        assert!(matches!(
            r,
            Request::Join {
                seat_token: None,
                since: None,
                ..
            }
        ));
    }

    #[test]
    fn each_mistake_in_a_message_gets_its_own_sentence() {
        assert!(refused("not json").contains("bad JSON"));
        assert!(refused("[1,2]").contains("JSON object"));
        assert!(refused(r#"{"t":"ping"}"#).contains("version"));
        assert!(refused(r#"{"v":1.0,"t":"ping"}"#).contains("version"));
        assert!(refused(r#"{"v":1}"#).contains("\"t\""));
        assert!(refused(r#"{"v":1,"t":"teleport"}"#).contains("unknown message type"));
        assert!(refused(r#"{"v":1,"t":"move","game":"g","move":42}"#).contains("\"move\""));
        assert!(refused(r#"{"v":1,"t":"move","move":"a1-a2"}"#).contains("\"game\""));
        assert!(refused(r#"{"v":1,"t":"join","game":"g","since":-1}"#).contains("\"since\""));
        assert!(refused(r#"{"v":1,"t":"join","game":"g","seat_token":5}"#).contains("string"));
        assert!(refused(r#"{"v":1,"t":"setup","game":"g","setup":[]}"#).contains("object"));
        assert!(refused(r#"{"v":1,"t":"setup","game":"g"}"#).contains("random"));
        let (id, r) = parse_request(r#"{"v":2,"t":"ping","id":"x"}"#);
        assert!(r.unwrap_err().to_string().contains("version"));
        assert_eq!(
            id,
            Some(Value::from("x")),
            "the id is echoed with the error"
        );
    }

    #[test]
    fn a_frame_has_the_version_first_and_the_id_last() {
        let f = frame(
            &ServerMsg::Ack {
                game: Some("g"),
                ver: Some(3),
            },
            Some(&Value::from(9)),
        );
        assert_eq!(&*f, r#"{"v":1,"t":"ack","game":"g","ver":3,"id":9}"#);
        assert_eq!(&*frame(&ServerMsg::Pong, None), r#"{"v":1,"t":"pong"}"#);
        assert_eq!(
            &*frame(
                &ServerMsg::Ack {
                    game: None,
                    ver: None
                },
                None
            ),
            r#"{"v":1,"t":"ack"}"#
        );
        assert_eq!(
            &*event_frame(r#""g""#, 4, "null"),
            r#"{"v":1,"t":"event","game":"g","ver":4,"e":null}"#
        );
    }
}
