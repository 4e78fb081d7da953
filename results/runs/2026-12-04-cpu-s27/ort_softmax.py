# ONNX Runtime float32 Softmax (opset 13, axis -1) on an M x N input, IOBinding to a numpy output, as
# peers/cpu_peers.py builds it; prints the median over 7 batches of back-to-back runs (~50 ms each).
#   python ort_softmax.py N M [THREADS]
import numpy as np, onnxruntime as ort, time, sys
from onnx import helper, TensorProto
N=int(sys.argv[1]); M=int(sys.argv[2])
g=helper.make_graph([helper.make_node("Softmax",["x"],["out"],axis=-1)],"g",
  [helper.make_tensor_value_info("x",TensorProto.FLOAT,[M,N])],[helper.make_tensor_value_info("out",TensorProto.FLOAT,[M,N])])
m=helper.make_model(g,opset_imports=[helper.make_opsetid("",13)])
so=ort.SessionOptions(); so.intra_op_num_threads=int(sys.argv[3]) if len(sys.argv)>3 else 2
s=ort.InferenceSession(m.SerializeToString(),so,providers=["CPUExecutionProvider"])
x=np.random.randn(M,N).astype(np.float32); out=np.empty_like(x)
io=s.io_binding(); io.bind_cpu_input("x",x); io.bind_output("out","cpu",0,np.float32,[M,N],out.ctypes.data)
for _ in range(20): s.run_with_iobinding(io)
res=[]
for rep in range(7):
    k=max(1,int(0.05/ (1e-9*N*M*0.4)))
    t=time.perf_counter()
    for _ in range(k): s.run_with_iobinding(io)
    res.append((time.perf_counter()-t)/k)
print(N,M,"ort median us", round(np.median(res)*1e6,1))
