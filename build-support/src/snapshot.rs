//! Pre-initialisation: run a core module's `wizer-initialize` export once, at build time, and
//! write its memory and globals back as the module's initial state (what Wizer does).
//!
//! A host gives every policy call a fresh instance, so tables a policy builds lazily (the
//! scanner's automata, compiled patterns) would be rebuilt on every call. Snapshotting after
//! `Policy::prepare` moves that work into the build. The module runs in wasmi, an interpreter:
//! it builds in seconds, where a second wasmtime in the build graph would take minutes.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wasmi::{Engine, Extern, Instance, Linker, Module, Store, Val};
use wasmtime_wizer::{InstanceState, SnapshotVal, Wizer};

/// The core export a policy's `export_policy!` adds for [`pre_initialise`] to call.
pub const INIT_EXPORT: &str = "wizer-initialize";

/// Returns `module` with its state after `wizer-initialize` ran as its initial state, or
/// `None` when the module has no such export. The export is gone from the result.
pub fn pre_initialise(module: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let engine = Engine::default();
    let plain = Module::new(&engine, module).map_err(|e| format!("not a core module: {e}"))?;
    if plain.get_export(INIT_EXPORT).is_none() {
        return Ok(None);
    }
    let mut wizer = Wizer::new();
    wizer.init_func(INIT_EXPORT);
    let (cx, instrumented) = wizer
        .instrument(module)
        .map_err(|e| format!("cannot be pre-initialised: {e:#}"))?;
    let instrumented =
        Module::new(&engine, &instrumented).map_err(|e| format!("instrumented module: {e}"))?;

    let mut store = Store::new(&engine, ());
    let mut linker = Linker::<()>::new(&engine);
    for import in instrumented.imports() {
        if let wasmi::ExternType::Func(ty) = import.ty() {
            let name = format!("{}#{}", import.module(), import.name());
            linker
                .func_new(
                    import.module(),
                    import.name(),
                    ty.clone(),
                    move |_, _, _| {
                        Err(wasmi::Error::new(format!(
                            "the initialiser called the import {name}; it may use only constants"
                        )))
                    },
                )
                .map_err(|e| format!("linking {}: {e}", import.name()))?;
        }
    }
    let instance = linker
        .instantiate_and_start(&mut store, &instrumented)
        .map_err(|e| format!("instantiating: {e}"))?;
    for name in ["_initialize", INIT_EXPORT] {
        if let Ok(init) = instance.get_typed_func::<(), ()>(&store, name) {
            init.call(&mut store, ())
                .map_err(|e| format!("`{name}` failed: {e}"))?;
        }
    }
    let snapshot = block_on(wizer.snapshot(
        &cx,
        &mut Interpreted {
            store: &mut store,
            instance,
        },
    ))
    .map_err(|e| format!("snapshot: {e:#}"))?;
    Ok(Some(snapshot))
}

/// A module instance in wasmi, as the snapshot reads it.
struct Interpreted<'a> {
    store: &'a mut Store<()>,
    instance: Instance,
}

impl InstanceState for Interpreted<'_> {
    async fn global_get(&mut self, name: &str, _: wasmparser::ValType) -> SnapshotVal {
        let global = self
            .instance
            .get_global(&*self.store, name)
            .unwrap_or_else(|| panic!("the instrumented module exports the global {name}"));
        match global.get(&*self.store) {
            Val::I32(x) => SnapshotVal::I32(x),
            Val::I64(x) => SnapshotVal::I64(x),
            Val::F32(x) => SnapshotVal::F32(x.to_bits()),
            Val::F64(x) => SnapshotVal::F64(x.to_bits()),
            Val::V128(x) => SnapshotVal::V128(x.as_u128()),
            other => panic!("global {name} holds a reference ({other:?}), which no snapshot keeps"),
        }
    }

    async fn memory_contents(&mut self, name: &str, contents: impl FnOnce(&[u8]) + Send) {
        match self.instance.get_export(&*self.store, name) {
            Some(Extern::Memory(memory)) => contents(memory.data(&*self.store)),
            _ => panic!("the instrumented module exports the memory {name}"),
        }
    }
}

/// Runs a future that never waits: every step of a snapshot answers at once from the store.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the snapshot waited on something, but nothing here waits"),
    }
}
