"""Training the learned value from self-play (``pdk train``). The one part of pdk that
imports PyTorch (the optional extra ``pdk[train]``); it sits above the bots, which read the
weights it writes with numpy only (``pdk.bots.value_net``)."""
