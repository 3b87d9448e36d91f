//! The accounts' HTTP endpoints (`docs/protocol.md`, "Identity"), the cookie's checks
//! (cross-site requests refused, the cookie renewed while in use) and the caller's identity
//! for every endpoint.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{clear_cookie, cookie_of, set_cookie};
use crate::app::App;
use crate::error::{Error, Result};
use crate::http::{client_ip, parse};
use crate::identity::User;

/// The `Authorization: Bearer` token of a request.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// Who sent a request: a Bearer guest or API token first, else the session cookie.
pub(crate) fn caller(app: &App, headers: &HeaderMap) -> Option<User> {
    bearer(headers)
        .and_then(|t| app.identity.authenticate(t))
        .or_else(|| cookie_of(headers).and_then(|c| app.accounts.session_user(c)))
}

/// The caller, who must be an account.
fn account(app: &App, headers: &HeaderMap) -> Result<User> {
    let u = crate::http::user(app, headers)?;
    if u.account {
        Ok(u)
    } else {
        Err(Error::Forbidden(
            "this needs an account: register (POST /api/accounts) or log in (POST /api/session)"
                .into(),
        ))
    }
}

/// Whether a request's `Origin` (when it has one) is another site than this server's own:
/// its host and port differ from the request's `Host` (or, behind a trusted proxy, its
/// `X-Forwarded-Host`).
fn foreign_origin(app: &App, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else {
        return true;
    };
    let Some(origin_host) = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
    else {
        // `null` (a sandboxed frame, a file) or another scheme: not this site.
        return true;
    };
    let forwarded = app
        .config
        .trust_forwarded_for
        .then(|| headers.get("x-forwarded-host"))
        .flatten();
    let host = forwarded
        .or_else(|| headers.get(header::HOST))
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.split(',').next())
        .map(str::trim);
    host.is_none_or(|h| !h.eq_ignore_ascii_case(origin_host.trim_end_matches('/')))
}

/// Every request passes here: a request carrying the session cookie that would change
/// something (any method but GET and HEAD, and the WebSocket upgrade) is refused (403)
/// when its `Origin` is another site's, unless a Bearer token authenticates it (a
/// cross-site request cannot set one). A cookie in use is sent again once a day, which
/// renews its `Max-Age`.
pub(crate) async fn cookie_guard(
    State(app): State<Arc<App>>,
    req: Request,
    next: Next,
) -> Response {
    let cookie = cookie_of(req.headers()).map(str::to_string);
    if cookie.is_some() {
        let changes =
            !matches!(*req.method(), Method::GET | Method::HEAD) || req.uri().path() == "/ws";
        if changes && foreign_origin(&app, req.headers()) {
            let by_bearer = bearer(req.headers())
                .and_then(|t| app.identity.authenticate(t))
                .is_some();
            if !by_bearer {
                return Error::Forbidden(
                    "a request from another site cannot use this site's login; open the page on this server".into(),
                )
                .into_response();
            }
        }
    }
    let mut resp = next.run(req).await;
    if let Some(c) = cookie {
        if !resp.headers().contains_key(header::SET_COOKIE)
            && app.accounts.session_user(&c).is_some()
            && app.accounts.renew(&c)
        {
            if let Ok(v) = HeaderValue::from_str(&set_cookie(&c, app.config.secure_cookies)) {
                resp.headers_mut().append(header::SET_COOKIE, v);
            }
        }
    }
    resp
}

/// An answer with a `Set-Cookie` header.
fn with_cookie(status: StatusCode, cookie: &str, body: Value) -> Response {
    let mut r = (status, Json(body)).into_response();
    if let Ok(v) = HeaderValue::from_str(cookie) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r
}

fn account_json(u: &User) -> Value {
    json!({"v": 1, "id": u.id, "name": u.name, "account": true})
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// `POST /api/accounts {"name","password"}`: registers (and logs in). With a guest's Bearer
/// token, the guest becomes the account, keeping its id, games and seat tokens.
pub async fn register(
    State(app): State<Arc<App>>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let req: Credentials = parse(&body)?;
    let ip = client_ip(&app, peer.map(|c| c.0.0), &headers);
    let guest = bearer(&headers)
        .and_then(|t| app.identity.authenticate(t))
        .filter(|u| !u.account);
    let (u, cookie) = app
        .accounts
        .register(&req.name, &req.password, guest.as_ref(), ip)
        .await?;
    app.seen(&u.id);
    Ok(with_cookie(
        StatusCode::CREATED,
        &set_cookie(&cookie, app.config.secure_cookies),
        account_json(&u),
    ))
}

/// `POST /api/session {"name","password"}`: logs in.
pub async fn login(
    State(app): State<Arc<App>>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let req: Credentials = parse(&body)?;
    let ip = client_ip(&app, peer.map(|c| c.0.0), &headers);
    let (u, cookie) = app.accounts.login(&req.name, &req.password, ip).await?;
    app.seen(&u.id);
    Ok(with_cookie(
        StatusCode::OK,
        &set_cookie(&cookie, app.config.secure_cookies),
        account_json(&u),
    ))
}

#[derive(Deserialize)]
/// The query of `DELETE /api/session`.
pub struct LogoutQuery {
    #[serde(default)]
    everywhere: bool,
}

/// `DELETE /api/session`: logs this device out; `?everywhere=true`: every session of the
/// account ends (its connections close, its seat tokens change; API tokens stay).
pub async fn logout(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<LogoutQuery>,
) -> Result<Response> {
    let cookie = cookie_of(&headers);
    if q.everywhere {
        let u = account(&app, &headers)?;
        app.sign_out(&u.id).await?;
    } else {
        let c = cookie.ok_or_else(|| {
            Error::BadRequest(
                "this device has no session cookie; to end every session, DELETE /api/session?everywhere=true".into(),
            )
        })?;
        app.accounts.logout(c).await?;
    }
    Ok(with_cookie(
        StatusCode::OK,
        &clear_cookie(app.config.secure_cookies),
        json!({"v": 1, "logged_out": if q.everywhere { "everywhere" } else { "this device" }}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    old: String,
    new: String,
}

/// `POST /api/account/password {"old","new"}`: every other session ends.
pub async fn change_password(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>> {
    let u = account(&app, &headers)?;
    let req: PasswordChange = parse(&body)?;
    app.accounts
        .change_password(&u.id, &req.old, &req.new, cookie_of(&headers))
        .await?;
    Ok(Json(json!({"v": 1, "password": "changed"})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: String,
}

/// `DELETE /api/account {"password"}`: deletes the account. Its games in progress are
/// resigned; every game stays, shown under the name "deleted player"; its name is free.
pub async fn delete(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let u = account(&app, &headers)?;
    let req: Deletion = parse(&body)?;
    app.accounts
        .check_own_password(&u.id, &req.password)
        .await?;
    app.delete_account(&u.id).await?;
    Ok(with_cookie(
        StatusCode::OK,
        &clear_cookie(app.config.secure_cookies),
        json!({"v": 1, "deleted": u.id}),
    ))
}

/// `GET /api/account/tokens`: the account's API tokens (never the tokens themselves).
pub async fn tokens(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>> {
    let u = account(&app, &headers)?;
    Ok(Json(json!({"v": 1, "tokens": app.accounts.tokens(&u.id)})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewToken {
    name: String,
}

/// `POST /api/account/tokens {"name"}`: a new API token, shown this once.
pub async fn create_token(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response> {
    let u = account(&app, &headers)?;
    let req: NewToken = parse(&body)?;
    let (id, token) = app.accounts.create_token(&u.id, &req.name).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"v": 1, "id": id, "name": req.name.trim(), "token": token})),
    )
        .into_response())
}

/// `DELETE /api/account/tokens/{id}`: revokes an API token.
pub async fn revoke_token(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>> {
    let u = account(&app, &headers)?;
    app.accounts.revoke_token(&u.id, &id).await?;
    Ok(Json(json!({"v": 1, "revoked": id})))
}
