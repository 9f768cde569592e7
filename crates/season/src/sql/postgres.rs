//! The PostgreSQL driver of [`Sql`](super::Sql): each [`Value`] written as
//! the type PostgreSQL gave its parameter (an integer as `INTEGER`,
//! `BIGINT` or `SMALLINT`, so that statements need no casts to match the
//! schema's column types), and each column read into a cell by its type.

use std::error::Error;

use bytes::BytesMut;
use tokio_postgres::{
    Client,
    types::{FromSql, IsNull, ToSql, Type, to_sql_checked},
};

use super::{Cell, DriverError, Row, Value};

type BoxedError = Box<dyn Error + Sync + Send>;

impl ToSql for Value<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxedError> {
        let refused = |what: &str| -> BoxedError {
            format!("{what} given for a parameter of type {ty}").into()
        };
        match *self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(value) => match *ty {
                Type::INT8 => value.to_sql(ty, out),
                Type::INT4 => i32::try_from(value)
                    .map_err(|_| refused(&format!("{value}, too large")))?
                    .to_sql(ty, out),
                Type::INT2 => i16::try_from(value)
                    .map_err(|_| refused(&format!("{value}, too large")))?
                    .to_sql(ty, out),
                _ => Err(refused("an integer")),
            },
            Value::Real(value) => match *ty {
                Type::FLOAT8 => value.to_sql(ty, out),
                Type::FLOAT4 => (value as f32).to_sql(ty, out),
                _ => Err(refused("a number")),
            },
            Value::Text(text) if <&str as ToSql>::accepts(ty) => text.to_sql(ty, out),
            Value::Text(_) => Err(refused("a text")),
            Value::Bytes(bytes) if *ty == Type::BYTEA => bytes.to_sql(ty, out),
            Value::Bytes(_) => Err(refused("bytes")),
        }
    }

    /// Any type: [`Value::to_sql`] refuses, naming both, what does not fit.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Cell {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Cell, BoxedError> {
        Ok(match *ty {
            Type::INT2 => Cell::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::INT4 => Cell::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT8 => Cell::Int(i64::from_sql(ty, raw)?),
            Type::BOOL => Cell::Int(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT4 => Cell::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::FLOAT8 => Cell::Real(f64::from_sql(ty, raw)?),
            Type::BYTEA => Cell::Bytes(Vec::<u8>::from_sql(ty, raw)?),
            _ => Cell::Text(String::from_sql(ty, raw)?),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Cell, BoxedError> {
        Ok(Cell::Null)
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT2
                | Type::INT4
                | Type::INT8
                | Type::BOOL
                | Type::FLOAT4
                | Type::FLOAT8
                | Type::BYTEA
        ) || <String as FromSql>::accepts(ty)
    }
}

/// The error with its source, which carries the database's own words.
pub(crate) fn full_message(error: &tokio_postgres::Error) -> String {
    match std::error::Error::source(error) {
        Some(source) => format!("{error}: {source}"),
        None => error.to_string(),
    }
}

fn failed(error: &tokio_postgres::Error) -> DriverError {
    DriverError {
        cause: full_message(error),
        lost: error.is_closed(),
    }
}

fn parameters<'a>(params: &'a [Value<'_>]) -> Vec<&'a (dyn ToSql + Sync)> {
    params
        .iter()
        .map(|value| value as &(dyn ToSql + Sync))
        .collect()
}

pub(super) async fn execute(
    client: &Client,
    sql: &str,
    params: &[Value<'_>],
) -> Result<u64, DriverError> {
    client
        .execute(sql, &parameters(params))
        .await
        .map_err(|e| failed(&e))
}

pub(super) async fn query(
    client: &Client,
    sql: &str,
    params: &[Value<'_>],
) -> Result<Vec<Row>, DriverError> {
    let rows = client
        .query(sql, &parameters(params))
        .await
        .map_err(|e| failed(&e))?;
    rows.iter()
        .map(|row| {
            let cells = (0..row.len())
                .map(|index| row.try_get::<_, Cell>(index).map_err(|e| failed(&e)))
                .collect::<Result<_, _>>()?;
            Ok(Row { cells })
        })
        .collect()
}

pub(super) async fn batch(client: &Client, sql: &str) -> Result<(), DriverError> {
    client.batch_execute(sql).await.map_err(|e| failed(&e))
}
