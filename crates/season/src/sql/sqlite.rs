//! The SQLite driver of [`Sql`](super::Sql): parameters bound by their
//! names `$1`, `$2`, … (so a statement's text is PostgreSQL's), statements
//! kept prepared by the connection's cache, rows read into cells.

use rusqlite::{
    Connection, Statement,
    types::{ToSqlOutput, ValueRef},
};

use super::{Cell, DriverError, Row, Value};

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Int(value) => ValueRef::Integer(value),
            Value::Real(value) => ValueRef::Real(value),
            Value::Text(text) => ValueRef::Text(text.as_bytes()),
            Value::Bytes(bytes) => ValueRef::Blob(bytes),
        }))
    }
}

fn failed(error: rusqlite::Error) -> DriverError {
    DriverError::new(error.to_string())
}

/// Binds `params` to `statement`'s parameters by name: `$N` is the N-th.
/// As on PostgreSQL, the statement uses each of the values given, and no
/// other.
fn bind(statement: &mut Statement<'_>, params: &[Value<'_>]) -> Result<(), DriverError> {
    let mut used = vec![false; params.len()];
    for index in 1..=statement.parameter_count() {
        let number = statement
            .parameter_name(index)
            .and_then(|name| name.strip_prefix('$'))
            .and_then(|number| number.parse::<usize>().ok())
            .filter(|&number| number > 0)
            .ok_or_else(|| {
                DriverError::new(format!(
                    "parameter {index} of the statement is not named $1, $2, … \
                     (the names both databases accept)"
                ))
            })?;
        let value = params.get(number - 1).ok_or_else(|| {
            DriverError::new(format!(
                "the statement uses ${number}, given {} values",
                params.len()
            ))
        })?;
        used[number - 1] = true;
        statement.raw_bind_parameter(index, value).map_err(failed)?;
    }
    match used.iter().position(|used| !used) {
        Some(unused) => Err(DriverError::new(format!(
            "the statement does not use ${} of the {} values given",
            unused + 1,
            params.len()
        ))),
        None => Ok(()),
    }
}

pub(super) fn execute(
    connection: &Connection,
    sql: &str,
    params: &[Value<'_>],
) -> Result<u64, DriverError> {
    let mut statement = connection.prepare_cached(sql).map_err(failed)?;
    bind(&mut statement, params)?;
    let changed = statement.raw_execute().map_err(failed)?;
    Ok(changed as u64)
}

fn cell(value: ValueRef<'_>) -> Result<Cell, DriverError> {
    Ok(match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(value) => Cell::Int(value),
        ValueRef::Real(value) => Cell::Real(value),
        ValueRef::Text(text) => Cell::Text(
            String::from_utf8(text.to_vec())
                .map_err(|e| DriverError::new(format!("a stored text is not UTF-8: {e}")))?,
        ),
        ValueRef::Blob(bytes) => Cell::Bytes(bytes.to_vec()),
    })
}

pub(super) fn query(
    connection: &Connection,
    sql: &str,
    params: &[Value<'_>],
) -> Result<Vec<Row>, DriverError> {
    let mut statement = connection.prepare_cached(sql).map_err(failed)?;
    bind(&mut statement, params)?;
    let columns = statement.column_count();
    let mut rows = statement.raw_query();
    let mut read = Vec::new();
    while let Some(row) = rows.next().map_err(failed)? {
        let cells = (0..columns)
            .map(|index| cell(row.get_ref(index).map_err(failed)?))
            .collect::<Result<_, _>>()?;
        read.push(Row { cells });
    }
    Ok(read)
}

pub(super) fn batch(connection: &Connection, sql: &str) -> Result<(), DriverError> {
    connection.execute_batch(sql).map_err(failed)
}
