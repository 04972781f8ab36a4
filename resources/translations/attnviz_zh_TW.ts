<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>Chart</name>
    <message>
        <source>offset j − i (key position minus query position)</source>
        <translation>偏移 j − i（鍵位置減查詢位置）</translation>
    </message>
    <message>
        <source>Mean weight at each offset, %1, 1 sentence</source>
        <extracomment>%1 block and layer, %2 how many sentences</extracomment>
        <translation>各偏移處的平均權重，%1，1 個句子</translation>
    </message>
    <message>
        <source>Mean weight at each offset, %1, %2 sentences</source>
        <translation>各偏移處的平均權重，%1，%2 個句子</translation>
    </message>
    <message>
        <source>the head&apos;s mean weight</source>
        <translation>該頭的平均權重</translation>
    </message>
    <message>
        <source>its Gaussian fit</source>
        <translation>其高斯擬合</translation>
    </message>
    <message>
        <source>Pruning the heads of %1 (%2 sentences)</source>
        <extracomment>%1 a model&apos;s name, %2 how many sentences</extracomment>
        <translation>%1 的注意力頭剪枝（%2 個句子）</translation>
    </message>
    <message>
        <source>heads removed</source>
        <translation>已移除的頭數</translation>
    </message>
    <message>
        <source>loss (cross-entropy, nats)</source>
        <translation>損失（交叉熵，nats）</translation>
    </message>
    <message>
        <source>random order</source>
        <translation>隨機順序</translation>
    </message>
    <message>
        <source>least important first</source>
        <translation>最不重要的先移除</translation>
    </message>
    <message>
        <source>Mean attention distance by layer (%1 images)</source>
        <extracomment>The distance-by-layer chart&apos;s title: %1 how many images the means are over</extracomment>
        <translation>各層的平均注意力距離（%1 張影像）</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>mean attention distance (pixels), a dot per head</source>
        <translation>平均注意力距離（畫素），每個頭一個點</translation>
    </message>
    <message>
        <source>uniform attention (%1 px)</source>
        <extracomment>The reference line of the distance chart: %1 its value in pixels</extracomment>
        <translation>均勻注意力（%1 畫素）</translation>
    </message>
    <message>
        <source>%1 · layer %2 · %3 · %4 px</source>
        <extracomment>A dot of the distance chart: %1 the model, %2 the layer, %3 the head (e.g. &quot;head 3&quot;), %4 its mean attention distance in pixels</extracomment>
        <translation>%1 · 第 %2 層 · %3 · %4 畫素</translation>
    </message>
</context>
<context>
    <name>Figure</name>
    <message>
        <source>⁇ marks a word the model does not know: it reads &lt;unk&gt; there.</source>
        <translation>⁇ 標記模型不認識的詞：模型在該處讀到的是 &lt;unk&gt;。</translation>
    </message>
    <message>
        <source>enc self</source>
        <translation>編碼器自注意力</translation>
    </message>
    <message>
        <source>dec self</source>
        <translation>解碼器自注意力</translation>
    </message>
    <message>
        <source>cross</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>%1 · layer %2</source>
        <extracomment>A column title when every layer of one model is shown: %1 model, %2 layer number (counted from 1)</extracomment>
        <translation>%1 · 第 %2 層</translation>
    </message>
    <message>
        <source>head %1</source>
        <extracomment>A panel&apos;s head: %1 its number, counted from 1</extracomment>
        <translation>頭 %1</translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation>%1 個頭的平均</translation>
    </message>
    <message>
        <source>rollout through L1–L%1</source>
        <extracomment>Attention rollout through the layers from the first (L1) to the layer %1 (from 1)</extracomment>
        <translation>L1–L%1 的注意力展開（rollout）</translation>
    </message>
    <message>
        <source>words</source>
        <extracomment>Subword pieces merged into words</extracomment>
        <translation>整詞</translation>
    </message>
    <message>
        <source>words, CJK by character</source>
        <extracomment>Subword pieces merged into words; Chinese, Japanese and Korean text one word per character</extracomment>
        <translation>整詞，中日韓文字按字</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <extracomment>The Gaussian fit subtracted in a residual panel&apos;s title</extracomment>
        <translation>高斯</translation>
    </message>
    <message>
        <source>no %1 block
in layer %2</source>
        <translation>第 %2 層中
沒有%1模組</translation>
    </message>
    <message>
        <source>Query %1</source>
        <extracomment>A query profile&apos;s title: %1 the query token&apos;s place in the sentence, counted from 1</extracomment>
        <translation>查詢 %1</translation>
    </message>
    <message>
        <source>%1, every head</source>
        <translation>%1，所有頭</translation>
    </message>
    <message>
        <source>every model, mean of heads</source>
        <translation>所有模型，各頭平均</translation>
    </message>
    <message>
        <source>step %1</source>
        <extracomment>A training snapshot: %1 the step number</extracomment>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 during training · &quot;%2&quot;</source>
        <extracomment>A filmstrip&apos;s title: %1 the model, %2 the probe sentence</extracomment>
        <translation>%1 訓練過程 · 「%2」</translation>
    </message>
    <message>
        <source>%1 × %2 cells do not fit beside labels of %3 pt: a larger page, fewer panels or smaller labels</source>
        <translation>%1 × %2 個格子放不下（標籤為 %3 pt）：請使用更大的頁面、更少的面板或更小的標籤</translation>
    </message>
    <message>
        <source>Token labels at %1 pt: one in every %2 shown.</source>
        <extracomment>Footnote of a figure: %1 the labels&apos; size in points, %2 how many tokens per label</extracomment>
        <translation>詞元標籤為 %1 pt：每 %2 個詞元標出一個。</translation>
    </message>
    <message>
        <source>Query: patch (row %1, column %2), outlined.</source>
        <extracomment>A figure&apos;s footnote: %1 and %2 the query patch&apos;s grid row and column, from 1</extracomment>
        <translation>查詢：圖塊（第 %1 行，第 %2 列），已描邊。</translation>
    </message>
    <message>
        <source>Query: the class token.</source>
        <translation>查詢：類別詞元。</translation>
    </message>
    <message>
        <source>Query: what the classifier reads: the class token (pool cls) or the mean of the patch rows (pool mean).</source>
        <translation>查詢：分類器讀取的內容：類別詞元（pool cls）或各圖塊行的均值（pool mean）。</translation>
    </message>
    <message>
        <source>%1st</source>
        <extracomment>Ordinal numbers (1st, 2nd, 3rd, 4th…) of a token that occurs more than once</extracomment>
        <translation>第 %1 個</translation>
    </message>
    <message>
        <source>%1nd</source>
        <translation>第 %1 個</translation>
    </message>
    <message>
        <source>%1rd</source>
        <translation>第 %1 個</translation>
    </message>
    <message>
        <source>%1th</source>
        <translation>第 %1 個</translation>
    </message>
    <message>
        <source>(%1)</source>
        <extracomment>After a token that occurs more than once: which one it is, e.g. &quot;to (2nd)&quot;</extracomment>
        <translation>（%1）</translation>
    </message>
    <message>
        <source>Query: patch (row %1, column %2).</source>
        <translation>查詢：圖塊（第 %1 列，第 %2 欄）。</translation>
    </message>
</context>
<context>
    <name>attnviz::Engine</name>
    <message>
        <source>Fashion-MNIST images (vision)</source>
        <translation>Fashion-MNIST 影像（視覺）</translation>
    </message>
    <message>
        <source>Dot-product vs hard-coded Gaussian (HC-SA)</source>
        <translation>點積注意力 vs 硬編碼高斯注意力（HC-SA）</translation>
    </message>
    <message>
        <source>The hard-coded attention paper&apos;s four (You et al. 2020)</source>
        <translation>硬編碼注意力論文的四個模型（You 等，2020）</translation>
    </message>
    <message>
        <source>The Synthesizer family (Tay et al. 2021) beside dot</source>
        <translation>Synthesizer 家族（Tay 等，2021）與點積對照</translation>
    </message>
    <message>
        <source>Every model of the set</source>
        <translation>該組的全部模型</translation>
    </message>
    <message>
        <source>English → Spanish (real text, subwords)</source>
        <translation>英語 → 西班牙語（真實文本，子詞）</translation>
    </message>
    <message>
        <source>Toy translation (152 words, exact alignments)</source>
        <translation>玩具翻譯任務（152 個詞，精確對齊）</translation>
    </message>
    <message>
        <source>English language models (real text)</source>
        <translation>英語語言模型（真實文本）</translation>
    </message>
    <message>
        <source>Toy language models</source>
        <translation>玩具語言模型</translation>
    </message>
    <message>
        <source>dot-product (Vaswani et al., 2017)</source>
        <translation>點積（Vaswani et al., 2017）</translation>
    </message>
    <message>
        <source>dense synthesizer</source>
        <translation>稠密合成器</translation>
    </message>
    <message>
        <source>random synthesizer</source>
        <translation>隨機合成器</translation>
    </message>
    <message>
        <source>fixed random synthesizer</source>
        <translation>固定隨機合成器</translation>
    </message>
    <message>
        <source>factorized dense synthesizer</source>
        <translation>分解稠密合成器</translation>
    </message>
    <message>
        <source>factorized random synthesizer</source>
        <translation>分解隨機合成器</translation>
    </message>
    <message>
        <source>random + dot synthesizer</source>
        <translation>隨機 + 點積合成器</translation>
    </message>
    <message>
        <source>dense + dot synthesizer</source>
        <translation>稠密 + 點積合成器</translation>
    </message>
    <message>
        <source>HC-SA: Gaussian self-attention, learned cross-attention</source>
        <translation>HC-SA：高斯自注意力，可學習的交叉注意力</translation>
    </message>
    <message>
        <source>all hard-coded: Gaussian self- and cross-attention</source>
        <translation>全部硬編碼：高斯自注意力與交叉注意力</translation>
    </message>
    <message>
        <source>HC-SA + one learned cross-attention head</source>
        <translation>HC-SA + 一個可學習的交叉注意力頭</translation>
    </message>
    <message>
        <source>learned local window (w = 2)</source>
        <translation>可學習的局部窗口（w = 2）</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>複製（copy）</translation>
    </message>
    <message>
        <source>reverse</source>
        <translation>倒序（reverse）</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>排序（sort）</translation>
    </message>
    <message>
        <source>translate</source>
        <translation>翻譯（translate）</translation>
    </message>
    <message>
        <source>lm</source>
        <translation>語言模型（lm）</translation>
    </message>
    <message>
        <source>Dot-product attention (Vaswani et al., 2017): query-key similarity.</source>
        <translation>點積注意力（Vaswani et al., 2017）：查詢與鍵的相似度。</translation>
    </message>
    <message>
        <source>Dense synthesizer (Tay et al., 2021): each token predicts its own row of weights over positions, without looking at the keys.</source>
        <translation>稠密合成器（Tay et al., 2021）：每個詞元自行預測它對各位置的一列權重，不參考鍵。</translation>
    </message>
    <message>
        <source>Random synthesizer (Tay et al., 2021): one table of weights per head, the same for every sentence; trainable or fixed.</source>
        <translation>隨機合成器（Tay et al., 2021）：每個頭一張權重表，對所有句子都相同；可訓練或固定。</translation>
    </message>
    <message>
        <source>Factorized dense synthesizer (Tay et al., 2021): two short predictions of lengths a and b whose outer product gives a row of length L = a*b.</source>
        <translation>分解稠密合成器（Tay et al., 2021）：兩個長度分別為 a 和 b 的短預測，其外積給出長度 L = a*b 的一列。</translation>
    </message>
    <message>
        <source>Factorized random synthesizer (Tay et al., 2021): a rank-k table per head, the same for every sentence.</source>
        <translation>分解隨機合成器（Tay et al., 2021）：每個頭一張秩為 k 的表，對所有句子都相同。</translation>
    </message>
    <message>
        <source>Mixture of synthesizers (Tay et al., 2021), e.g. random + dot: a learned convex combination of the components&apos; logits.</source>
        <translation>合成器的混合（Tay et al., 2021），如隨機 + 點積：各組成部分 logits 的可學習凸組合。</translation>
    </message>
    <message>
        <source>Hard-coded Gaussian attention (You, Sun &amp; Iyyer, 2020): fixed windows centred at an offset from each query position; nothing is learned.</source>
        <translation>硬編碼高斯注意力（You, Sun &amp; Iyyer, 2020）：以每個查詢位置加一個偏移為中心的固定窗口；不學習任何參數。</translation>
    </message>
    <message>
        <source>Learned local window: each head learns how much to attend to each relative position −w…w and ignores everything further away; no query-key comparison.</source>
        <translation>可學習的局部窗口：每個頭學習對每個相對位置 −w…w 的關注程度，更遠處一概忽略；沒有查詢與鍵的比較。</translation>
    </message>
    <message>
        <source>centre o_h of head h&apos;s window relative to the query (heads cycle through the list); default [-1, 1], in decoder self-attention [-1, 0]</source>
        <translation>頭 h 的窗口中心 o_h，相對於查詢位置（各頭依序循環使用清單）；預設 [-1, 1]，解碼器自注意力中為 [-1, 0]</translation>
    </message>
    <message>
        <source>standard deviation of every window, in positions</source>
        <translation>每個窗口的標準差，以位置為單位</translation>
    </message>
    <message>
        <source>renormalise each row over its unmasked keys (the paper does not)</source>
        <translation>對每一列在未遮蓋的鍵上重新正規化（論文中沒有這樣做）</translation>
    </message>
    <message>
        <source>cross-attention only: window centre r*i + o_h, r ~ source/target length</source>
        <translation>僅用於交叉注意力：窗口中心 r*i + o_h，r ≈ 源句長度/目標句長度</translation>
    </message>
    <message>
        <source>Learned Gaussian window (our 1D reading of Cordonnier, Loukas &amp; Jaggi, 2020): each head learns the centre and width of a Gaussian over relative positions; no query-key comparison.</source>
        <translation>可學習的高斯窗口（我們對 Cordonnier, Loukas &amp; Jaggi, 2020 的一維解讀）：每個頭學習相對位置上一個高斯的中心與寬度；沒有查詢與鍵的比較。</translation>
    </message>
    <message>
        <source>starting centre mu_h of head h&apos;s window relative to the query (heads cycle through the list); default [-1, 0, 1], in decoder self-attention [-1, 0]</source>
        <translation>頭 h 的窗口的起始中心 mu_h，相對於查詢位置（各頭依序循環使用清單）；預設 [-1, 0, 1]，解碼器自注意力中為 [-1, 0]</translation>
    </message>
    <message>
        <source>starting width sigma of every head&apos;s window, in positions</source>
        <translation>每個頭的窗口的起始寬度 sigma，以位置為單位</translation>
    </message>
    <message>
        <source>Real clothing photos (colour images)</source>
        <translation>真實衣物照片（彩色影像）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::AnalysisRunner</name>
    <message>
        <source>the analysis failed: %1</source>
        <translation>分析失敗：%1</translation>
    </message>
    <message>
        <source>an image model: it reads images, not sentences (choose the image set in the Models box)</source>
        <translation>影像模型：它讀取的是影像而不是句子（請在“模型”框中選擇影像模型集）</translation>
    </message>
    <message>
        <source>a text model: it reads sentences, not images</source>
        <translation>文字模型：它讀取的是句子而不是影像</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ClothingPhotos</name>
    <message>
        <source>T-Shirt</source>
        <translation>T恤</translation>
    </message>
    <message>
        <source>Longsleeve</source>
        <translation>長袖上衣</translation>
    </message>
    <message>
        <source>Pants</source>
        <translation>長褲</translation>
    </message>
    <message>
        <source>Shoes</source>
        <translation>鞋</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>襯衫</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>連身裙</translation>
    </message>
    <message>
        <source>Outwear</source>
        <translation>外套</translation>
    </message>
    <message>
        <source>Shorts</source>
        <translation>短褲</translation>
    </message>
    <message>
        <source>Skirt</source>
        <translation>半身裙</translation>
    </message>
    <message>
        <source>Hat</source>
        <translation>帽子</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ColorBar</name>
    <message>
        <source>Colour scale shared by every panel: 0 to the largest weight in view</source>
        <translation>所有面板共用的色階：從 0 到檢視中的最大權重</translation>
    </message>
    <message>
        <source>difference</source>
        <extracomment>Colour bar title: the scale shows differences (or attention weights)</extracomment>
        <translation>差值</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>權重</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ColumnFiles</name>
    <message>
        <source>unknown error while reading it</source>
        <translation>讀取時發生未知錯誤</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ComparisonGrid</name>
    <message>
        <source>%1 and %3 have different head counts here (%2 and %4): the heads of separately trained models do not correspond, so there is no head-by-head difference. Layout › Mean compares their maps.</source>
        <extracomment>In a panel of the &quot;− column 1&quot; view: %1 this model, %2 its head count, %3 the first column&apos;s model, %4 its head count</extracomment>
        <translation>%1 與 %3 在此處的頭數不同（%2 與 %4）：分別訓練的模型的頭並不一一對應，因此無法逐頭求差。佈局 › 平均 可比較它們的注意力圖。</translation>
    </message>
    <message>
        <source>updating…</source>
        <extracomment>Over a panel whose map is of an earlier sentence, while the new one is analysed</extracomment>
        <translation>正在更新…</translation>
    </message>
    <message>
        <source>decoding…
the %1 maps follow</source>
        <extracomment>In a panel: the model decodes the sentence; its decoder maps come next. %1: the block shown (&quot;cross&quot;, &quot;dec self&quot;)</extracomment>
        <translation>正在解碼…
%1 的注意力圖隨後顯示</translation>
    </message>
    <message>
        <source>Move &amp;left</source>
        <translation>左移(&amp;L)</translation>
    </message>
    <message>
        <source>Move &amp;right</source>
        <translation>右移(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Remove column</source>
        <translation>移除欄(&amp;R)</translation>
    </message>
    <message>
        <source>(untrained)</source>
        <extracomment>Column header: the model was never trained (random weights)</extracomment>
        <translation>（未訓練）</translation>
    </message>
    <message>
        <source>BLEU %1</source>
        <extracomment>Column header: the model&apos;s held-out BLEU score, e.g. &quot;BLEU 15.9&quot;</extracomment>
        <translation>BLEU %1</translation>
    </message>
    <message>
        <source>acc %1%</source>
        <extracomment>Column header: the model&apos;s held-out token accuracy, e.g. &quot;acc 35.1%&quot;</extracomment>
        <translation>準確率 %1%</translation>
    </message>
    <message>
        <source>AER %1</source>
        <extracomment>Column header: the best head&apos;s alignment error rate, e.g. &quot;AER 0.41&quot;</extracomment>
        <translation>AER %1</translation>
    </message>
    <message>
        <source>BLEU: the greedy translations against the references, 0–100, higher is better</source>
        <translation>BLEU：貪心解碼的譯文與參考譯文對比，0–100，越高越好</translation>
    </message>
    <message>
        <source>acc: the share of next tokens predicted right (teacher forcing), higher is better</source>
        <translation>準確率：正確預測下一個詞元的比例（教師強制），越高越好</translation>
    </message>
    <message>
        <source>AER: alignment error rate of the best head&apos;s (or layer&apos;s) cross-attention against reference word alignments, 0–1, lower is better</source>
        <translation>AER：最佳注意力頭（或層）的交叉注意力相對參考詞對齊的對齊錯誤率，0–1，越低越好</translation>
    </message>
    <message>
        <source>examples not trained on</source>
        <extracomment>Column header tooltip: the examples the metrics were measured on, e.g. &quot;the first 200 usable lines of dev.tsv&quot;</extracomment>
        <translation>未參與訓練的樣本</translation>
    </message>
    <message>
        <source>&lt;b&gt;Held-out quality&lt;/b&gt;, recorded in the checkpoint when it was trained, on %1:</source>
        <translation>&lt;b&gt;留出集品質&lt;/b&gt;（訓練時記入檢查點），評測樣本：%1：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Output&lt;/b&gt;: %1</source>
        <extracomment>Column header tooltip: the model&apos;s decoded output sentence</extracomment>
        <translation>&lt;b&gt;輸出&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <source>%1 of %2 words unknown</source>
        <translation>%2 個詞中有 %1 個未知</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 words are unknown to this model&lt;/b&gt; (it sees &amp;lt;unk&amp;gt;; their labels end in ⁇)</source>
        <translation>&lt;b&gt;%2 個詞中有 %1 個是此模型不認識的&lt;/b&gt;（模型看到的是 &amp;lt;unk&amp;gt;；這些詞的標籤以 ⁇ 結尾）</translation>
    </message>
    <message>
        <source>fixed random</source>
        <extracomment>Column header: the random synthesizer whose table is not trained</extracomment>
        <translation>固定隨機</translation>
    </message>
    <message>
        <source>%1 (%2: %3)</source>
        <extracomment>Column header: the model&apos;s variant, then the block shown and its own variant, e.g. &quot;dense (cross: dot)&quot;</extracomment>
        <translation>%1（%2：%3）</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportDialog</name>
    <message>
        <source>Export figure</source>
        <translation>匯出圖</translation>
    </message>
    <message>
        <source>One panel (clicked model)</source>
        <translation>單一面板（所點選的模型）</translation>
    </message>
    <message>
        <source>Query profile</source>
        <translation>查詢分佈</translation>
    </message>
    <message>
        <source>Loss curves</source>
        <translation>損失曲線</translation>
    </message>
    <message>
        <source>Head of the clicked model for “One panel”</source>
        <translation>「單一面板」所用的頭（屬於所點選的模型）</translation>
    </message>
    <message>
        <source>Single column 3.5 in (252 × 189 pt)</source>
        <translation>單欄 3.5 in（252 × 189 pt）</translation>
    </message>
    <message>
        <source>Double column 7 in (504 × 360 pt)</source>
        <translation>雙欄 7 in（504 × 360 pt）</translation>
    </message>
    <message>
        <source>Custom</source>
        <extracomment>Figure size: a size typed in</extracomment>
        <translation>自訂</translation>
    </message>
    <message>
        <source> dpi (PNG)</source>
        <extracomment>Spin box suffix: the resolution of PNG files</extracomment>
        <translation> dpi (PNG)</translation>
    </message>
    <message>
        <source> pt</source>
        <extracomment>Spin box suffix: the unit of the font size (points)</extracomment>
        <translation> pt</translation>
    </message>
    <message>
        <source>Colour bar</source>
        <translation>色條</translation>
    </message>
    <message>
        <source>&amp;Figure</source>
        <extracomment>Form label: what the figure shows</extracomment>
        <translation>圖(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Head</source>
        <extracomment>Form label: the attention head</extracomment>
        <translation>頭(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Size</source>
        <extracomment>Form label: the figure&apos;s page size</extracomment>
        <translation>尺寸(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Resolution</source>
        <translation>解析度(&amp;R)</translation>
    </message>
    <message>
        <source>F&amp;ont</source>
        <translation>字型(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <extracomment>Form label: the figure&apos;s title</extracomment>
        <translation>標題(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>匯出(&amp;E)…</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已寫入 %1</translation>
    </message>
    <message>
        <source>The language of the figure&apos;s titles, axis titles and legends; tokens are never translated</source>
        <translation>圖中標題、座標軸標題和圖例所用的語言；詞元從不翻譯</translation>
    </message>
    <message>
        <source>&amp;Labels in</source>
        <extracomment>Form label: the language of the figure&apos;s titles and legends</extracomment>
        <translation>標註語言(&amp;L)</translation>
    </message>
    <message>
        <source>Slide 16:9 (13.33 × 7.5 in)</source>
        <translation>投影片 16:9（13.33 × 7.5 in）</translation>
    </message>
    <message>
        <source>Slide 4:3 (10 × 7.5 in)</source>
        <translation>投影片 4:3（10 × 7.5 in）</translation>
    </message>
    <message>
        <source> px</source>
        <extracomment>Spin box suffix: the PNG&apos;s width and height in pixels</extracomment>
        <translation> px</translation>
    </message>
    <message>
        <source>The PNG&apos;s exact size; the page in points follows at the resolution</source>
        <translation>PNG 的精確畫素尺寸；以 pt 計的頁面尺寸按解析度隨之改變</translation>
    </message>
    <message>
        <source>The grid as shown</source>
        <translation>目前顯示的網格</translation>
    </message>
    <message>
        <source>The columns shown, in their order, with the view&apos;s block, layer and heads</source>
        <translation>顯示的欄（依其順序），以及檢視的模組、層和頭</translation>
    </message>
    <message>
        <source>Ca&amp;ption: the sentence and its translation</source>
        <translation>題注：句子及其譯文(&amp;P)</translation>
    </message>
    <message>
        <source>PN&amp;G size</source>
        <extracomment>Form label: the PNG file&apos;s size in pixels</extracomment>
        <translation>PNG 尺寸(&amp;G)</translation>
    </message>
    <message>
        <source>Label si&amp;ze</source>
        <extracomment>Form label: the size of the token labels (points)</extracomment>
        <translation>標籤大小(&amp;Z)</translation>
    </message>
    <message>
        <source>SVG, PDF: %1 × %2 pt (%3 × %4 in) · PNG: %5 × %6 px at %7 dpi · labels %8 pt (%9 px in the PNG)</source>
        <extracomment>Export status: %1 × %2 the page in points, %3 × %4 in inches, %5 × %6 the PNG&apos;s pixels, %7 its dpi, %8 the labels&apos; points, %9 their height in the PNG&apos;s pixels</extracomment>
        <translation>SVG、PDF：%1 × %2 pt（%3 × %4 in）· PNG：%5 × %6 px，%7 dpi · 標籤 %8 pt（PNG 中為 %9 px）</translation>
    </message>
    <message>
        <source>O&amp;utline the query</source>
        <translation>為查詢加框(&amp;U)</translation>
    </message>
    <message>
        <source>A frame around the clicked query (red around a row of every map, black and white around a patch of every image); without it the query is still labelled</source>
        <translation>在點擊的查詢周圍加框（熱度圖中一列為紅框，影像中一個圖塊為黑白框）；不加框時查詢仍有標註</translation>
    </message>
    <message>
        <source>Token labels and panel titles, in points on the page (in a PNG: points × dpi / 72 pixels); titles are larger. Until you change it, it follows the size: up to 12 pt on a slide (smaller, down to 7 pt, where a label per token needs it), 7 pt on a paper&apos;s figure</source>
        <translation>詞元標籤和面板標題的大小，以頁面上的 pt 計（PNG 中為 pt × dpi / 72 畫素）；標題更大。在您修改之前，它隨頁面尺寸變化：投影片上最大 12 pt（若每個詞元都要有標籤則縮小，最小 7 pt），論文插圖中為 7 pt</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ExportSources</name>
    <message>
        <source>nothing to export yet</source>
        <translation>尚無可匯出的內容</translation>
    </message>
    <message>
        <source>click a query token first</source>
        <translation>請先點選一個查詢詞元</translation>
    </message>
    <message>
        <source>no loss curves yet: train a model in the Training tab</source>
        <translation>尚無損失曲線：請在「訓練」停駐視窗中訓練模型</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FashionMnist</name>
    <message>
        <source>T-shirt/top</source>
        <translation>T恤/上衣</translation>
    </message>
    <message>
        <source>Trouser</source>
        <translation>褲子</translation>
    </message>
    <message>
        <source>Pullover</source>
        <translation>套頭衫</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>連衣裙</translation>
    </message>
    <message>
        <source>Coat</source>
        <translation>外套</translation>
    </message>
    <message>
        <source>Sandal</source>
        <translation>涼鞋</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>襯衫</translation>
    </message>
    <message>
        <source>Sneaker</source>
        <translation>運動鞋</translation>
    </message>
    <message>
        <source>Bag</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Ankle boot</source>
        <translation>短靴</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FilmDock</name>
    <message>
        <source>&amp;Open probe file…</source>
        <translation>開啟探針檔案(&amp;O)…</translation>
    </message>
    <message>
        <source>E&amp;xport filmstrip…</source>
        <translation>匯出快照序列圖(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Save probe…</source>
        <translation>儲存探針(&amp;S)…</translation>
    </message>
    <message>
        <source>Train with a probe sentence (Training tab: &apos;Record attention over training&apos;) or open a probe file written by attnviz-cli train --probe</source>
        <translation>使用探針句子訓練（「訓練」停駐視窗：「記錄訓練過程中的注意力」），或開啟由 attnviz-cli train --probe 寫入的探針檔案</translation>
    </message>
    <message>
        <source>A probe file (M.probe.json) written by attnviz-cli train --probe S --probe-every K --out M.safetensors</source>
        <translation>由 attnviz-cli train --probe S --probe-every K --out M.safetensors 寫入的探針檔案（M.probe.json）</translation>
    </message>
    <message>
        <source>The chosen block, layer and heads at five evenly spaced steps (every step when there are six or fewer), a column per step, as SVG, PDF or PNG</source>
        <translation>所選模組、層和頭在五個等間隔訓練步上的快照（不超過六步時顯示每一步），每步一欄，格式為 SVG、PDF 或 PNG</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>訓練步</translation>
    </message>
    <message>
        <source>Write these snapshots as a probe file (JSON, docs/analysis.md), to open later or draw with attnviz-cli render --probe; a run trained here is lost otherwise</source>
        <translation>將這些快照寫入探針檔案（JSON，見 docs/analysis.md），以便稍後開啟或以 attnviz-cli render --probe 繪製；否則在此訓練的結果將會遺失</translation>
    </message>
    <message>
        <source>%1 holds no snapshots</source>
        <translation>%1 不含快照</translation>
    </message>
    <message>
        <source>%1 · no snapshots</source>
        <translation>%1 · 無快照</translation>
    </message>
    <message>
        <source>%1 · “%2” · step %3 (%4/%5) · no target: the rows are each snapshot&apos;s own decoded output</source>
        <extracomment>The probe&apos;s caption: the run, “the sentence”, the step and which snapshot of how many</extracomment>
        <translation>%1 · 「%2」 · 第 %3 步（%4/%5）· 無目標句：每一列是各快照自身的解碼輸出</translation>
    </message>
    <message>
        <source>%1 · “%2” · step %3 (%4/%5)</source>
        <translation>%1 · 「%2」 · 第 %3 步（%4/%5）</translation>
    </message>
    <message>
        <source>step %1 of %2 (a snapshot every %3 steps)</source>
        <translation>第 %1 步，共 %2 步（每 %3 步一個快照）</translation>
    </message>
    <message>
        <source>step %1</source>
        <extracomment>A heatmap&apos;s title: the training step it shows</extracomment>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 · step %2 · %3</source>
        <extracomment>A heatmap&apos;s tooltip title: the run, the training step, the block and head</extracomment>
        <translation>%1 · 第 %2 步 · %3</translation>
    </message>
    <message>
        <source>no snapshots yet: train with a probe sentence or open a probe file</source>
        <translation>尚無快照：請使用探針句子訓練，或開啟探針檔案</translation>
    </message>
    <message>
        <source>no steps chosen for the filmstrip</source>
        <translation>未為快照序列圖選擇任何步</translation>
    </message>
    <message>
        <source>Open training probe</source>
        <translation>開啟訓練探針</translation>
    </message>
    <message>
        <source>Probe files (*.probe.json);;All files (*)</source>
        <translation>探針檔案 (*.probe.json);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Cannot open the probe file: %1</source>
        <translation>無法開啟探針檔案：%1</translation>
    </message>
    <message>
        <source>opened %1: %2 snapshots of %3</source>
        <translation>已開啟 %1：%3 的 %2 個快照</translation>
    </message>
    <message>
        <source>no snapshots to save</source>
        <translation>沒有可儲存的快照</translation>
    </message>
    <message>
        <source>Save probe</source>
        <translation>儲存探針</translation>
    </message>
    <message>
        <source>Cannot save the probe: %1</source>
        <translation>無法儲存探針：%1</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已寫入 %1</translation>
    </message>
    <message>
        <source>Export filmstrip</source>
        <translation>匯出快照序列圖</translation>
    </message>
    <message>
        <source>Cannot export the filmstrip: %1</source>
        <translation>無法匯出快照序列圖：%1</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FolderColumns</name>
    <message>
        <source>watching %1: %2 was removed (its column stays)</source>
        <translation>正在監看 %1：%2 已被移除（其欄保留）</translation>
    </message>
    <message>
        <source>A folder could not be watched</source>
        <translation>無法監看資料夾</translation>
    </message>
    <message>
        <source>watching %1: no checkpoints yet</source>
        <translation>正在監看 %1：尚無檢查點</translation>
    </message>
    <message>
        <source>stopped watching %1 (its columns stay)</source>
        <translation>已停止監看 %1（其欄保留）</translation>
    </message>
    <message>
        <source>A checkpoint in the watched folder could not be opened (tried again when the file changes)</source>
        <translation>無法開啟所監看資料夾中的某個檢查點（檔案變更時會重試）</translation>
    </message>
    <message>
        <source>A checkpoint in the watched folder cannot be read (tried again when the file changes)</source>
        <translation>無法讀取所監看資料夾中的某個檢查點（檔案變更時會重試）</translation>
    </message>
    <message>
        <source>watching %1: updated %2 (step %3)</source>
        <translation>正在監看 %1：已更新 %2（第 %3 步）</translation>
    </message>
    <message>
        <source>watching %1: updated %2</source>
        <translation>正在監看 %1：已更新 %2</translation>
    </message>
    <message>
        <source>watching %1: added %2</source>
        <translation>正在監看 %1：已新增 %2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::FolderWatch</name>
    <message>
        <source>the folder does not exist</source>
        <translation>資料夾不存在</translation>
    </message>
    <message>
        <source>it is not a folder</source>
        <translation>不是資料夾</translation>
    </message>
    <message>
        <source>the folder cannot be read</source>
        <translation>無法讀取該資料夾</translation>
    </message>
    <message>
        <source>Cannot watch %1: %2</source>
        <translation>無法監看 %1：%2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadsDock</name>
    <message>
        <source>%1 of %2 · this image · distance in pixels</source>
        <translation>%1（%2）· 本影像 · 距離以畫素計</translation>
    </message>
    <message>
        <source>Messages (%1)</source>
        <extracomment>Heads dock: the toggle that shows or hides the folded messages</extracomment>
        <translation>訊息（%1）</translation>
    </message>
    <message>
        <source>Over the sentence list</source>
        <translation>依句子清單統計</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Pruning curves</source>
        <translation>剪枝曲線</translation>
    </message>
    <message>
        <source>Heads</source>
        <extracomment>Accessible name of the table of attention heads</extracomment>
        <translation>注意力頭</translation>
    </message>
    <message>
        <source>Filter by model</source>
        <translation>依模型篩選</translation>
    </message>
    <message>
        <source>Statistics over every sentence of the Sentences dock: entropy, confidence, distance and Gaussian fit averaged over the set; input dependence; importance (Michel et al. 2019) when the lines have targets (&quot;source TAB target&quot;), or for language models. Shown until another sentence is chosen.</source>
        <translation>對「句子」停駐視窗中的每個句子進行統計：熵、信心度、距離與高斯擬合取整個集合上的平均；輸入依賴度；當各行帶有目標句（「源句 TAB 目標句」）時，或對於語言模型，另有重要性（Michel et al. 2019）。會一直顯示，直到選擇另一個句子。</translation>
    </message>
    <message>
        <source>Sentences analysed and models finished</source>
        <translation>已分析的句子數與已完成的模型數</translation>
    </message>
    <message>
        <source>Stop the computation over the sentence list or the pruning (the table and the curves stay as they are)</source>
        <translation>停止對句子清單的統計或剪枝（表格與曲線維持原狀）</translation>
    </message>
    <message>
        <source>Pruning curves (Michel et al. 2019) of the model beside: its heads removed one by one, least important first and in a random order (seed %1), loss and BLEU over the same sentences after each removal, in a window of their own. Needs the importance of a computation over the sentence list (&quot;source TAB target&quot; lines, or a language model)</source>
        <translation>旁邊所選模型的剪枝曲線（Michel et al. 2019）：逐一移除其頭，分別依最不重要者優先與隨機順序（種子 %1），每次移除後在相同句子上計算損失與 BLEU，結果顯示於獨立視窗中。需要先依句子清單統計出重要性（使用「源句 TAB 目標句」格式的行，或語言模型）</translation>
    </message>
    <message>
        <source>The model to prune: those with importance over the sentence list</source>
        <translation>要剪枝的模型：僅列出已依句子清單統計出重要性的模型</translation>
    </message>
    <message>
        <source>No models</source>
        <translation>沒有模型</translation>
    </message>
    <message>
        <source>No statistics: no model could analyse the sentence</source>
        <translation>無統計結果：沒有模型能分析此句子</translation>
    </message>
    <message>
        <source>%1 of %2 · current sentence</source>
        <translation>%1（%2）· 目前句子</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失敗：%2</translation>
    </message>
    <message>
        <source>Over the sentence list: cancelled, the models or the sentences changed</source>
        <translation>依句子清單統計：已取消，模型或句子已變更</translation>
    </message>
    <message>
        <source>Pruning curves: the models or the sentences changed; compute over the sentence list again</source>
        <translation>剪枝曲線：模型或句子已變更；請重新依句子清單統計</translation>
    </message>
    <message>
        <source>no models</source>
        <translation>沒有模型</translation>
    </message>
    <message>
        <source>the sentence list has %1; statistics over a set need 2 or more (File › Open sentence list…)</source>
        <translation>句子清單只有 %1；集合統計至少需要 2 個句子（檔案 › 開啟句子清單…）</translation>
    </message>
    <message>
        <source>Over the sentence list: %1</source>
        <translation>依句子清單統計：%1</translation>
    </message>
    <message>
        <source>Over the sentence list: cancelled</source>
        <translation>依句子清單統計：已取消</translation>
    </message>
    <message>
        <source>Pruning curves: cancelled</source>
        <translation>剪枝曲線：已取消</translation>
    </message>
    <message>
        <source>%1 · shown until another sentence is chosen</source>
        <translation>%1 · 會一直顯示，直到選擇另一個句子</translation>
    </message>
    <message>
        <source>no model has importance yet: compute over the sentence list first, with &quot;source TAB target&quot; lines (or a language model)</source>
        <translation>尚無模型具有重要性：請先依句子清單統計，使用「源句 TAB 目標句」格式的行（或使用語言模型）</translation>
    </message>
    <message>
        <source>choose a model</source>
        <translation>請選擇一個模型</translation>
    </message>
    <message>
        <source>a computation is running</source>
        <translation>有計算正在進行</translation>
    </message>
    <message>
        <source>Pruning curves: %1</source>
        <translation>剪枝曲線：%1</translation>
    </message>
    <message>
        <source>Pruning curves of %1: computing over %2…</source>
        <translation>%1 的剪枝曲線：正在以 %2 計算…</translation>
    </message>
    <message>
        <source>Evaluations: heads removed least important first, then in a random order</source>
        <translation>評估次數：先依最不重要者優先移除頭，再依隨機順序移除</translation>
    </message>
    <message>
        <source>Pruning curves of %1 failed: %2</source>
        <translation>%1 的剪枝曲線計算失敗：%2</translation>
    </message>
    <message>
        <source>Pruning curves of %1 (%2): in their window</source>
        <translation>%1 的剪枝曲線（%2）：已顯示於獨立視窗中</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>匯出(&amp;X)…</translation>
    </message>
    <message>
        <source>Write the curves as SVG, PDF or PNG, as attnviz-cli render --prune</source>
        <translation>將曲線儲存為 SVG、PDF 或 PNG，與 attnviz-cli render --prune 相同</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Pruning curves · %1</source>
        <translation>剪枝曲線 · %1</translation>
    </message>
    <message>
        <source>%1 heads removed one by one, least important first (normalised importance) and in a random order (seed %2); loss and BLEU over the %3 the importance was computed over.</source>
        <translation>逐一移除 %1 個頭，分別依最不重要者優先（正規化重要性）與隨機順序（種子 %2）；損失與 BLEU 以計算重要性時所用的 %3求得。</translation>
    </message>
    <message>
        <source>no pruning curves yet</source>
        <translation>尚無剪枝曲線</translation>
    </message>
    <message>
        <source>Export pruning curves</source>
        <translation>匯出剪枝曲線</translation>
    </message>
    <message>
        <source>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</source>
        <translation>SVG (*.svg);;PDF (*.pdf);;PNG (*.png)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已寫入 %1</translation>
    </message>
    <message>
        <source>Cannot export the curves: %1</source>
        <translation>無法匯出曲線：%1</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在計算…</translation>
    </message>
    <message>
        <source>%1 · %2 shown</source>
        <extracomment>%1: the status line; %2: how many rows the filter keeps</extracomment>
        <translation>%1 · 顯示 %2 列</translation>
    </message>
    <message>
        <source>Distance by layer</source>
        <translation>各層距離</translation>
    </message>
    <message>
        <source>The chart of mean attention distance by layer (Dosovitskiy et al. 2021, Fig. 7): a dot per head, a colour per model, on the image shown; the dashed line is uniform attention&apos;s distance</source>
        <translation>各層平均注意力距離圖（Dosovitskiy 等，2021，圖 7）：每個頭一個點，每個模型一種顏色，基於當前顯示的影像；虛線為均勻注意力的距離</translation>
    </message>
    <message>
        <source>No image model has analysed the image.</source>
        <translation>沒有影像模型分析過該影像。</translation>
    </message>
    <message>
        <source>Mean attention distance by layer, on this image</source>
        <translation>各層的平均注意力距離（當前影像）</translation>
    </message>
    <message>
        <source>Mean attention distance by layer, over %1 test images</source>
        <translation>各層的平均注意力距離（%1 張測試影像）</translation>
    </message>
    <message>
        <source>Over test images: cancelled</source>
        <translation>按測試影像統計：已取消</translation>
    </message>
    <message>
        <source>no image models</source>
        <translation>沒有影像模型</translation>
    </message>
    <message>
        <source>the test images are not loaded (yet)</source>
        <translation>測試影像（尚未）載入</translation>
    </message>
    <message>
        <source>Over test images: %1</source>
        <translation>按測試影像統計：%1</translation>
    </message>
    <message>
        <source>Test images analysed and models finished</source>
        <translation>已分析的測試影像數和已完成的模型數</translation>
    </message>
    <message>
        <source>Over test images: dropped, the models changed meanwhile</source>
        <translation>按測試影像統計：已丟棄，其間模型已更改</translation>
    </message>
    <message>
        <source>%1 · shown until another image is chosen</source>
        <translation>%1 · 一直顯示，直到選擇另一張影像</translation>
    </message>
    <message>
        <source>No image model&apos;s name contains “%1”.</source>
        <extracomment>The distance chart when the Heads dock&apos;s filter keeps no model: %1 the filter</extracomment>
        <translation>沒有名稱包含「%1」的影像模型。</translation>
    </message>
    <message>
        <source>Each head&apos;s mean attention distance over the first %1 %2 test images (all of them where there are fewer), as docs/results.md gives it (Dosovitskiy et al. 2021, Fig. 7), in the table and the chart. Shown until another image is chosen.</source>
        <extracomment>%2 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>每個頭在前 %1 張%2測試影像（不足時為全部）上的平均注意力距離，與 docs/results.md 中的演算法相同（Dosovitskiy 等，2021，圖 7），顯示在表格和圖表中。一直顯示，直到選擇另一張影像。</translation>
    </message>
    <message>
        <source>Over test images</source>
        <translation>按測試影像統計</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeadsTable</name>
    <message>
        <source>No two sentences of the list have the same number of tokens for this table (source tokens for encoder self-attention, target tokens for decoder self-attention, both for cross-attention, in this model&apos;s tokenizer): nothing to compare. Add sentences of equal length.</source>
        <translation>對於此表，列表中沒有兩個句子的詞元數相同（編碼器自注意力看源端詞元，解碼器自注意力看目標端詞元，交叉注意力兩者都看，按此模型的分詞器計）：無可比較。請新增長度相同的句子。</translation>
    </message>
    <message>
        <source>Input dependence compares sentences: it is computed over the sentence list only (&quot;Over the sentence list&quot;), — for the current sentence.</source>
        <translation>輸入依賴度比較的是不同句子：只在句子列表上計算（“基於句子列表”），當前句子顯示為 —。</translation>
    </message>
    <message>
        <source>Input dependence is — for %1: it compares the rows of one query position across sentences whose table has the same shape, so it needs at least 2 sentences of the list with the same number of tokens in the model&apos;s tokenizer (source tokens for encoder self-attention, target tokens for decoder self-attention, both for cross-attention).</source>
        <extracomment>Heads dock footnote: %1 &quot;3 heads&quot;. The rule of core/head_stats.h inputDependence.</extracomment>
        <translation>%1 的輸入依賴度為 —：它在表形狀相同的句子之間比較同一查詢位置的行，因此需要列表中至少 2 個在該模型分詞器下詞元數相同的句子（編碼器自注意力看源端詞元，解碼器自注意力看目標端詞元，交叉注意力兩者都看）。</translation>
    </message>
    <message>
        <source>%1 head</source>
        <translation>%1 個頭</translation>
    </message>
    <message>
        <source>%1 heads</source>
        <translation>%1 個頭</translation>
    </message>
    <message>
        <source>%1 model</source>
        <translation>%1 個模型</translation>
    </message>
    <message>
        <source>%1 models</source>
        <translation>%1 個模型</translation>
    </message>
    <message>
        <source>%1 column</source>
        <translation>%1 欄</translation>
    </message>
    <message>
        <source>%1 columns</source>
        <translation>%1 欄</translation>
    </message>
    <message>
        <source>%1 sentence</source>
        <translation>%1 個句子</translation>
    </message>
    <message>
        <source>%1 sentences</source>
        <translation>%1 個句子</translation>
    </message>
    <message>
        <source>%1 line</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>%1 lines</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>The head statistics could not be computed: %1</source>
        <translation>無法計算頭的統計量：%1</translation>
    </message>
    <message>
        <source>%1: no sentence could be analysed (%2)</source>
        <extracomment>A failed model column: its name, then the reason. Keep &quot;%1: &quot; at the start (the list of failures groups them by what follows it).</extracomment>
        <translation>%1：無法分析任何句子（%2）</translation>
    </message>
    <message>
        <source>%1: %2 of %3 skipped (first: %4)</source>
        <extracomment>%1 the model, %2 &quot;3 sentences&quot;, %3 their total, %4 the first error</extracomment>
        <translation>%1：略過了 %2（共 %3 個；第一個錯誤：%4）</translation>
    </message>
    <message>
        <source>%1: no importance: %2</source>
        <translation>%1：無法計算重要性：%2</translation>
    </message>
    <message>
        <source>%1: importance over %2 of %3 (%4 empty or too long)</source>
        <extracomment>%1 the model, %2 &quot;3 sentences&quot;, %3 their total, %4 how many were unusable</extracomment>
        <translation>%1：重要性根據其中 %2（共 %3 個；%4 個為空或過長）</translation>
    </message>
    <message>
        <source>%1: no importance: every sentence is empty or too long</source>
        <translation>%1：無法計算重要性：所有句子皆為空或過長</translation>
    </message>
    <message>
        <source>%1 of %2 · %3</source>
        <extracomment>Heads dock status: &quot;48 heads of 2 models · 10 sentences&quot;</extracomment>
        <translation>%1（%2）· %3</translation>
    </message>
    <message>
        <source>%1 without a target: no importance for seq2seq models (it needs &quot;source TAB target&quot; lines)</source>
        <translation>%1沒有目標句：seq2seq 模型無法計算重要性（需要「源句 TAB 目標句」格式的行）</translation>
    </message>
    <message>
        <source>%1 without a target: importance of seq2seq models over the other %2</source>
        <translation>%1沒有目標句：seq2seq 模型的重要性根據其餘 %2 行</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1失敗：%2</translation>
    </message>
    <message>
        <source>μ is at its bound (± the number of keys): the head puts its weight on the first (or last) key, a sink rather than a local window.</source>
        <translation>μ 位於邊界（± 鍵的數量）：該頭將權重集中在第一個（或最後一個）鍵上，是匯聚點（sink）而非局部窗口。</translation>
    </message>
    <message>
        <source>Over %1 query rows of sentences of the same length</source>
        <translation>根據等長句子的 %1 個查詢列</translation>
    </message>
    <message>
        <source>E|∂L/∂ξ| = %1 before normalising</source>
        <translation>正規化前 E|∂L/∂ξ| = %1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>模組</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>頭</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>變體</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>信心度</translation>
    </message>
    <message>
        <source>Distance</source>
        <translation>距離</translation>
    </message>
    <message>
        <source>μ</source>
        <translation>μ</translation>
    </message>
    <message>
        <source>σ</source>
        <translation>σ</translation>
    </message>
    <message>
        <source>R²</source>
        <translation>R²</translation>
    </message>
    <message>
        <source>Input dep.</source>
        <translation>輸入依賴度</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>The model column (sorting by it gives back the workspace&apos;s order)</source>
        <translation>模型所在的欄（依此排序即恢復工作區中的順序）</translation>
    </message>
    <message>
        <source>Encoder self-attention, decoder self-attention or cross-attention</source>
        <translation>編碼器自注意力、解碼器自注意力或交叉注意力</translation>
    </message>
    <message>
        <source>The block&apos;s layer, from 0</source>
        <translation>模組所在的層，從 0 開始</translation>
    </message>
    <message>
        <source>The head within its block, from 0</source>
        <translation>頭在其模組中的編號，從 0 開始</translation>
    </message>
    <message>
        <source>The block&apos;s attention variant</source>
        <translation>該模組的注意力變體</translation>
    </message>
    <message>
        <source>Mean entropy −Σ_j p_ij ln p_ij of the query rows, in nats: 0 when all weight is on one key, ln N when spread evenly over N keys</source>
        <translation>各查詢列的平均熵 −Σ_j p_ij ln p_ij，單位為 nat：全部權重集中在一個鍵上時為 0，平均分佈在 N 個鍵上時為 ln N</translation>
    </message>
    <message>
        <source>Mean over the query rows of the largest weight max_j p_ij (Voita et al. 2019): near 1, each query looks at one key</source>
        <translation>各查詢列最大權重 max_j p_ij 的平均值（Voita et al. 2019）：接近 1 時，每個查詢只關注一個鍵</translation>
    </message>
    <message>
        <source>Mean over the query rows of Σ_j p_ij |i − j|: how far a query looks, in positions</source>
        <translation>各查詢列 Σ_j p_ij |i − j| 的平均值：查詢關注的距離，以位置數計</translation>
    </message>
    <message>
        <source>μ: the centre j − i of the Gaussian window that best fits the head (−1: the previous token). At ± the number of keys (the bound), a sink at the start or end of the row</source>
        <translation>μ：最佳擬合該頭的高斯窗口的中心 j − i（−1 表示前一個詞元）。取值為 ± 鍵的數量（邊界）時，表示列首或列尾的匯聚點（sink）</translation>
    </message>
    <message>
        <source>σ: the width of that best-fitting Gaussian window, in positions</source>
        <translation>σ：該最佳擬合高斯窗口的寬度，以位置數計</translation>
    </message>
    <message>
        <source>R² = 1 − SSE / Σ (p_ij − p̄)² of that Gaussian window: 1 when the head is exactly such a window</source>
        <translation>該高斯窗口的 R² = 1 − SSE / Σ (p_ij − p̄)²：當該頭恰好就是這樣一個窗口時為 1</translation>
    </message>
    <message>
        <source>Input dependence (our definition): the rows of all sentences grouped by the table&apos;s shape and the query position i; the mean, over every pair of sentences in a group, of the total-variation distance ½ Σ_j |p_ij − p′_ij| between their rows. From 0 to 1: exactly 0 for heads whose weights depend on positions only (Gaussian windows, random synthesizers), above 0 for dot-product. Only sentences of the same length are compared. Over the sentence list only (— otherwise, and when no two sentences have the same length)</source>
        <translation>輸入依賴度（本程式的定義）：將所有句子的列依表格形狀和查詢位置 i 分組；對組內每一對句子，計算其對應列之間的總變異距離 ½ Σ_j |p_ij − p′_ij|，再取平均值。範圍為 0 到 1：權重僅取決於位置的頭（高斯窗口、隨機合成器）恰好為 0，點積注意力則大於 0。只比較長度相同的句子。僅根據句子清單計算（否則，或沒有任何兩個句子長度相同時，顯示 —）</translation>
    </message>
    <message>
        <source>Head importance (Michel, Levy &amp; Neubig 2019): I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1, with ξ_h a gate on the head&apos;s output and L(x) the summed token cross-entropy of sentence x under teacher forcing, divided by the ℓ2 norm of its block&apos;s scores as in the paper. It needs reference targets: &quot;source TAB target&quot; lines for translation models; a language model&apos;s line is its own target. Normalised within each block, so compare heads of one block: a block with one head scores 1 by construction. Over the sentence list only (— otherwise)</source>
        <translation>頭重要性（Michel, Levy &amp; Neubig 2019）：I_h = E_x |∂L(x)/∂ξ_h|，於 ξ = 1 處計算，其中 ξ_h 是作用於該頭輸出的閘控，L(x) 是句子 x 在教師強制（teacher forcing）下各詞元交叉熵的總和；並依論文做法除以其所在模組各頭分數的 ℓ2 範數。需要參考目標句：翻譯模型需要「源句 TAB 目標句」格式的行；語言模型的每一行以自身為目標。在每個模組內正規化，因此應比較同一模組中的頭：只有一個頭的模組依定義分數為 1。僅根據句子清單計算（否則顯示 —）</translation>
    </message>
    <message>
        <source>%1. Over every sentence of the sentence list (all their rows; one Gaussian fit for all), each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with what it is computed over</extracomment>
        <translation>%1。根據句子清單中的所有句子（其全部列；所有句子共用一次高斯擬合），每列在其允許的鍵上正規化（見 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>%1. Over the current sentence, each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with what it is computed over</extracomment>
        <translation>%1。根據目前句子，每列在其允許的鍵上正規化（見 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>%1, each row normalised over its allowed keys (docs/analysis.md).</source>
        <extracomment>%1 a column&apos;s tooltip (a statistic), completed with how its rows are normalised</extracomment>
        <translation>%1，每列在其允許的鍵上正規化（見 docs/analysis.md）。</translation>
    </message>
    <message>
        <source>a few seconds left</source>
        <translation>還剩幾秒</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <extracomment>Time a computation has left, estimated; %1 seconds (a multiple of 5)</extracomment>
        <translation>約剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <extracomment>Time a computation has left, estimated; %1 minutes</extracomment>
        <translation>約剩 %1 分鐘</translation>
    </message>
    <message>
        <source>about %1 h %2 min left</source>
        <extracomment>Time a computation has left, estimated; %1 hours, %2 minutes</extracomment>
        <translation>約剩 %1 小時 %2 分鐘</translation>
    </message>
    <message>
        <source>Sentence %1 of %2</source>
        <translation>第 %1 句，共 %2 句</translation>
    </message>
    <message>
        <source>Image %1 of %2</source>
        <extracomment>Heads dock, over test images: the image being analysed (%1) of all of them (every model&apos;s, %2)</extracomment>
        <translation>第 %1 張影像，共 %2 張</translation>
    </message>
    <message>
        <source>%1 of %2 · distance in pixels over %3 test images (only the distance: the other statistics are of one image at a time)</source>
        <extracomment>Heads dock status over test images: %1 &quot;44 heads&quot;, %2 &quot;11 models&quot;, %3 how many images</extracomment>
        <translation>%1（%2）· %3 張測試影像上的距離，以畫素計（僅距離；其他統計量針對單張影像）</translation>
    </message>
    <message>
        <source>%1 · model %2 of %3</source>
        <extracomment>%1: &quot;Sentence 3 of 40&quot;; %2, %3: the model being analysed and how many there are</extracomment>
        <translation>%1 · 第 %2 個模型，共 %3 個</translation>
    </message>
    <message>
        <source>Evaluation %1 of %2</source>
        <extracomment>Heads dock, pruning curves: the evaluation running (%1) of all of them (%2)</extracomment>
        <translation>第 %1 次評估，共 %2 次</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::HeatmapPanel</name>
    <message>
        <source>%1
query %2 &quot;%3&quot; → key %4 &quot;%5&quot;
weight %6
⁇ marks a word this model does not know (it sees &lt;unk&gt;)</source>
        <extracomment>A cell&apos;s tooltip: the panel&apos;s title, the query row and its token, the key column and its token, the weight</extracomment>
        <translation>%1
查詢 %2 「%3」 → 鍵 %4 「%5」
權重 %6
⁇ 表示此模型不認識的詞（模型看到的是 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>%1
query %2 &quot;%3&quot; → key %4 &quot;%5&quot;
weight %6</source>
        <translation>%1
查詢 %2 「%3」 → 鍵 %4 「%5」
權重 %6</translation>
    </message>
    <message>
        <source>labels: 1 in %1 tokens</source>
        <extracomment>Below a map whose token labels were thinned to fit: %1 tokens per label shown</extracomment>
        <translation>標籤：每 %1 個詞元標 1 個</translation>
    </message>
    <message>
        <source>Click: this query row, outlined in every panel</source>
        <extracomment>Last line of a heatmap cell&apos;s tooltip and the tooltip of a query label</extracomment>
        <translation>點擊：在每個面板中描出這一查詢行</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;</source>
        <extracomment>Tooltip of a query label left of a heatmap: %1 its position, %2 its token</extracomment>
        <translation>查詢 %1 「%2」</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageChooser</name>
    <message>
        <source>Every class</source>
        <translation>所有類別</translation>
    </message>
    <message>
        <source>Open image…</source>
        <translation>開啟影像…</translation>
    </message>
    <message>
        <source>Your own image (PNG, JPEG, BMP, …); you can also drop one on the window or paste it (Ctrl+V)</source>
        <translation>你自己的影像（PNG、JPEG、BMP 等）；也可以把影像拖放到視窗上或貼上（Ctrl+V）</translation>
    </message>
    <message>
        <source>Invert:</source>
        <translation>反色：</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Fashion-MNIST items are light on black: auto inverts an image whose border is light</source>
        <translation>Fashion-MNIST 的物品是黑底淺色：“自動”會把邊緣較亮的影像反色</translation>
    </message>
    <message>
        <source>Your image</source>
        <translation>你的影像</translation>
    </message>
    <message>
        <source>Test image %1: %2</source>
        <translation>測試影像 %1：%2</translation>
    </message>
    <message>
        <source>The image could not be opened</source>
        <translation>無法開啟該影像</translation>
    </message>
    <message>
        <source>Your image: %1</source>
        <translation>你的影像：%1</translation>
    </message>
    <message>
        <source>Your pasted image</source>
        <translation>你貼上的影像</translation>
    </message>
    <message>
        <source>The clipboard holds no image.</source>
        <translation>剪貼簿中沒有影像。</translation>
    </message>
    <message>
        <source> (inverted)</source>
        <translation>（已反色）</translation>
    </message>
    <message>
        <source>Open image</source>
        <translation>開啟影像</translation>
    </message>
    <message>
        <source>Images (%1)</source>
        <translation>影像 (%1)</translation>
    </message>
    <message>
        <source>The workspace&apos;s image could not be shown</source>
        <translation>無法顯示工作區中的影像</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop opening the image; the image shown stays</source>
        <translation>停止開啟影像；保留目前顯示的影像</translation>
    </message>
    <message>
        <source>Opening the pasted image…</source>
        <translation>正在開啟貼上的影像…</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在開啟 %1…</translation>
    </message>
    <message>
        <source>Opening the image was cancelled.</source>
        <translation>已取消開啟影像。</translation>
    </message>
    <message>
        <source>Photo:</source>
        <translation>照片：</translation>
    </message>
    <message>
        <source>cut out the garment</source>
        <translation>摳出衣物</translation>
    </message>
    <message>
        <source>whole image</source>
        <translation>整幅影像</translation>
    </message>
    <message>
        <source>Cut out: the garment is separated from its background by colour and texture (GrabCut), cropped, centred and inverted as Fashion-MNIST&apos;s items are. Whole image: the image is made 28 × 28 as it is.</source>
        <translation>摳出：依顏色和紋理把衣物從背景中分離（GrabCut），像 Fashion-MNIST 的商品圖那樣裁切、置中並反相。整幅影像：影像照原樣變為 28 × 28。</translation>
    </message>
    <message>
        <source>%1 (no garment cut out: %2)</source>
        <translation>%1（沒有摳出衣物：%2）</translation>
    </message>
    <message>
        <source>Your image with the garment found outlined, and the garment cropped; the models read it as the 28 × 28 image on the right</source>
        <translation>你的影像，找到的衣物已描出輪廓，以及裁切後的衣物；模型讀取的是右邊的 28 × 28 影像</translation>
    </message>
    <message>
        <source>No garment was cut out (%1): the whole image is used</source>
        <translation>沒有摳出衣物（%1）：使用整幅影像</translation>
    </message>
    <message>
        <source>Which %1 test images the strip shows</source>
        <extracomment>%1 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>影像條中顯示哪些%1測試影像</translation>
    </message>
    <message>
        <source>Loading the %1 test images…</source>
        <extracomment>%1 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>正在載入%1測試影像…</translation>
    </message>
    <message>
        <source>The %1 test images could not be read</source>
        <translation>無法讀取%1測試影像</translation>
    </message>
    <message>
        <source>Test image %1 is not among the %2 %3 test images.</source>
        <extracomment>%3 the image set: &quot;Fashion-MNIST&quot;, &quot;clothing-photo&quot;</extracomment>
        <translation>測試影像 %1 不在 %2 張%3測試影像之中。</translation>
    </message>
    <message>
        <source>The %1 × %1 %2 image the models see</source>
        <extracomment>%1 the side in pixels (28, 64); %2 &quot;grayscale&quot; or &quot;colour&quot;</extracomment>
        <translation>模型看到的 %1 × %1 %2影像</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>彩色</translation>
    </message>
    <message>
        <source>grayscale</source>
        <translation>灰階</translation>
    </message>
    <message>
        <source>: your photo as it is, its longer side scaled to %1 pixels and the rest filled with its mean colour, as the clothing photos were made</source>
        <translation>：您的照片原樣讀入，長邊縮放到 %1 像素，其餘部分以照片的平均顏色填滿，與服裝照片資料集的製作方式相同</translation>
    </message>
    <message>
        <source>Cut out: the garment is separated from its background by colour and texture (GrabCut) and set on gray, as the photos these models learned from were. Whole image: the photo fitted as it is.</source>
        <translation>摳出：依顏色和紋理把衣物從背景中分離（GrabCut），放在灰色背景上，與這些模型學習所用的照片一致。整幅影像：照片照原樣縮放。</translation>
    </message>
    <message>
        <source>Your image with the garment found outlined, and the garment cropped on gray; the models read it as the %1 × %1 image on the right</source>
        <translation>你的影像，找到的衣物已描出輪廓，以及裁切後放在灰色背景上的衣物；模型讀取的是右邊的 %1 × %1 影像</translation>
    </message>
    <message>
        <source>: your photo with the garment cut out on gray, as the photos these models learned from were made</source>
        <translation>：你的照片，衣物已摳出並放在灰色背景上，與這些模型學習所用的照片製作方式一致</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageGrid</name>
    <message>
        <source>No image models are open.</source>
        <translation>沒有開啟的影像模型。</translation>
    </message>
    <message>
        <source>Choose an image above.</source>
        <translation>請在上方選擇一張影像。</translation>
    </message>
    <message>
        <source>Click for the probability of every class</source>
        <extracomment>Tooltip of an image model&apos;s column header</extracomment>
        <translation>點選檢視每個類別的機率</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>類別</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>機率</translation>
    </message>
    <message>
        <source>accuracy %1 %</source>
        <extracomment>An image model&apos;s column header: its held-out accuracy, e.g. &quot;accuracy 89.0 %&quot;</extracomment>
        <translation>準確率 %1 %</translation>
    </message>
    <message>
        <source>images not trained on</source>
        <translation>未用於訓練的影像</translation>
    </message>
    <message>
        <source>&lt;b&gt;Held-out accuracy&lt;/b&gt;, recorded in the checkpoint when it was trained: %3 % of %2 images right (%1)</source>
        <extracomment>Tooltip of an image model&apos;s column header: %1 the images, %2 how many, %3 the accuracy</extracomment>
        <translation>&lt;b&gt;保留集準確率&lt;/b&gt;，訓練時記錄於檢查點中：%2 張影像中 %3 % 判斷正確（%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: being computed…</source>
        <extracomment>Tooltip of an image model&apos;s column header while its per-class accuracy is computed</extracomment>
        <translation>&lt;b&gt;各類別&lt;/b&gt;：正在計算…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: the held-out images could not be read (%1)</source>
        <extracomment>Tooltip of an image model&apos;s column header: %1 why the images could not be read</extracomment>
        <translation>&lt;b&gt;各類別&lt;/b&gt;：無法讀取保留集影像（%1）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;: none, the model does not read the images and classes of a bundled image set (Fashion-MNIST, the clothing photos)</source>
        <extracomment>Tooltip of an image model&apos;s column header</extracomment>
        <translation>&lt;b&gt;各類別&lt;/b&gt;：無，此模型讀取的不是內建影像集（Fashion-MNIST、服裝照片）的影像與類別</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;, on the %1 validation clothing photos (never trained on, but the checkpoint was chosen on them; test accuracy: docs/results.md):</source>
        <extracomment>Tooltip of an image model&apos;s column header, above each class&apos;s accuracy: %1 how many photos (406)</extracomment>
        <translation>&lt;b&gt;各類別&lt;/b&gt;準確率，依據 %1 張服裝照片驗證集（從未用於訓練，但檢查點是據此選出的；測試集準確率見 docs/results.md）：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per class&lt;/b&gt;, on the last %1 Fashion-MNIST training images (held out, never trained on; test accuracy: docs/results.md):</source>
        <extracomment>Tooltip of an image model&apos;s column header, above each class&apos;s accuracy: %1 how many images (5,000)</extracomment>
        <translation>&lt;b&gt;各類別&lt;/b&gt;準確率，依據 Fashion-MNIST 最後 %1 張訓練影像（保留集，從未用於訓練；測試集準確率見 docs/results.md）：</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageTasks</name>
    <message>
        <source>Fashion-MNIST</source>
        <extracomment>An image set&apos;s name, as in &quot;the Fashion-MNIST test images&quot;</extracomment>
        <translation> Fashion-MNIST </translation>
    </message>
    <message>
        <source>clothing-photo</source>
        <extracomment>An image set&apos;s name, as in &quot;the clothing-photo test images&quot; (issue 49)</extracomment>
        <translation>服裝照片</translation>
    </message>
    <message>
        <source>cut-out clothing-photo</source>
        <extracomment>An image set&apos;s name, as in &quot;the cut-out clothing-photo test images&quot; (issue 49)</extracomment>
        <translation>摳出衣物的服裝照片</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ImageView</name>
    <message>
        <source>Image models export their panels only.</source>
        <translation>影像模型只能匯出其面板。</translation>
    </message>
    <message>
        <source>patch (row %1, column %2)</source>
        <extracomment>The query box: the patch clicked, its grid row and column counted from 1</extracomment>
        <translation>圖塊（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <source>&amp;Layer:</source>
        <translation>層(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Heads:</source>
        <translation>頭(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation>查詢(&amp;Q)：</translation>
    </message>
    <message>
        <source>&amp;Opacity:</source>
        <translation>不透明度(&amp;O)：</translation>
    </message>
    <message>
        <source>Colour &amp;map:</source>
        <translation>顏色對映(&amp;M)：</translation>
    </message>
    <message>
        <source>every head</source>
        <translation>每個頭</translation>
    </message>
    <message>
        <source>mean of heads</source>
        <translation>各頭平均</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>注意力展開（rollout）</translation>
    </message>
    <message>
        <source>Rollout: the attention carried through every layer up to this one (Abnar &amp; Zuidema 2020)</source>
        <translation>注意力展開（rollout）：經由直到本層的每一層傳遞的注意力（Abnar &amp; Zuidema 2020）</translation>
    </message>
    <message>
        <source>what the classifier reads</source>
        <translation>分類器讀取的內容</translation>
    </message>
    <message>
        <source>class token</source>
        <translation>類別詞元</translation>
    </message>
    <message>
        <source>Whose attention the overlay shows; click a patch in any panel to make it the query</source>
        <translation>疊加層顯示誰的注意力；在任一面板中點選一個圖塊即可將其設為查詢</translation>
    </message>
    <message>
        <source>&amp;Shared scale</source>
        <translation>共用色階(&amp;S)</translation>
    </message>
    <message>
        <source>One colour scale for every panel, from 0 to the largest patch weight of all (shown beside the panels), so that panels can be compared; off, each panel&apos;s scale tops at its own largest weight</source>
        <translation>所有面板共用一個色階，從 0 到所有面板中最大的圖塊權重（顯示在面板旁），便於比較各面板；關閉時，每個面板的色階以其自身的最大權重為上限</translation>
    </message>
    <message>
        <source>Query %1 does not fit %2 (%3): what the classifier reads is shown</source>
        <translation>查詢 %1 不適用於 %2（%3）：改為顯示分類器讀取的內容</translation>
    </message>
    <message>
        <source>Unknown colour map &quot;%1&quot;: %2 is shown</source>
        <translation>未知的顏色對映“%1”：改為顯示 %2</translation>
    </message>
    <message>
        <source>Layer %1: the models have layers 1 … %2, the last is shown</source>
        <extracomment>%1 the workspace&apos;s layer, %2 the models&apos; last layer (layers counted from 1)</extracomment>
        <translation>第 %1 層：這些模型只有第 1 … %2 層，改為顯示最後一層</translation>
    </message>
    <message>
        <source>Query %1 cannot be read (%2): what the classifier reads is shown</source>
        <extracomment>%1 the workspace&apos;s query text, %2 why it cannot be read</extracomment>
        <translation>無法讀取查詢 %1（%2）：顯示分類器讀取的內容</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::LinesPanel</name>
    <message>
        <source>Query %1 &quot;%2&quot;</source>
        <translation>查詢 %1 「%2」</translation>
    </message>
    <message>
        <source>Key %1 &quot;%2&quot;</source>
        <translation>鍵 %1 「%2」</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::MainWindow</name>
    <message>
        <source>About attnviz</source>
        <translation>關於 attnviz</translation>
    </message>
    <message>
        <source>&amp;About attnviz</source>
        <translation>關於 attnviz(&amp;A)</translation>
    </message>
    <message>
        <source>No viewer could open the documentation. It is README.md and the docs folder of attnviz&apos;s source code.</source>
        <translation>沒有程式能開啟文件。文件是 attnviz 原始碼中的 README.md 和 docs 資料夾。</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文件(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>說明(&amp;H)</translation>
    </message>
    <message>
        <source>The variants come from:</source>
        <translation>這些變體出自：</translation>
    </message>
    <message>
        <source>Licence: GNU General Public License, version 3 or later (GPL-3.0-or-later).</source>
        <translation>許可證：GNU 通用公共許可證第 3 版或更高版本（GPL-3.0-or-later）。</translation>
    </message>
    <message>
        <source>See how Transformer attention variants differ: trained models of each variant, their attention maps side by side for any sentence.</source>
        <translation>看看各種 Transformer 注意力變體有何不同：每種變體的已訓練模型，任意句子的注意力圖並排對比。</translation>
    </message>
    <message>
        <source>Documentation: %1 and the %2 folder.</source>
        <translation>文件：%1 和 %2 資料夾。</translation>
    </message>
    <message>
        <source>The documentation (README.md and docs/) comes with the source code.</source>
        <translation>文件（README.md 和 docs/）隨原始碼提供。</translation>
    </message>
    <message>
        <source>%1 · updating…</source>
        <extracomment>Dock title while its data is of an earlier sentence, e.g. &quot;Heads · updating…&quot;</extracomment>
        <translation>%1 · 正在更新…</translation>
    </message>
    <message>
        <source>%1 of %2 models could not run on this sentence</source>
        <translation>%2 個模型中有 %1 個無法在此句子上執行</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved: a workspace names its models by their files, so they would be left out of it. Save them first?</source>
        <translation>%1 個在此訓練的模型尚未儲存：工作區按檔案記錄模型，因此它們會被排除在外。先儲存它們嗎？</translation>
    </message>
    <message>
        <source>Save &amp;without them</source>
        <translation>不含它們直接儲存(&amp;W)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved. Switching to &quot;%2&quot; closes them and their training is lost.</source>
        <translation>在此訓練的 %1 個模型尚未儲存。切換到「%2」會關閉它們，其訓練結果將會遺失。</translation>
    </message>
    <message>
        <source>S&amp;witch without saving</source>
        <translation>不儲存直接切換(&amp;W)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved. Quitting loses them.</source>
        <translation>在此訓練的 %1 個模型尚未儲存。結束將會遺失它們。</translation>
    </message>
    <message>
        <source>&amp;Quit without saving</source>
        <translation>不儲存直接結束(&amp;Q)</translation>
    </message>
    <message>
        <source>%1 model(s) trained here are not saved and would be closed; their training is lost.</source>
        <translation>%1 個在此訓練的模型尚未儲存，將被關閉，其訓練結果會丟失。</translation>
    </message>
    <message>
        <source>C&amp;lose them</source>
        <translation>關閉它們(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Choose models…</source>
        <translation>選擇模型(&amp;C)…</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>對比(&amp;M)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; has none of the models of &quot;%2&quot;</source>
        <translation>“%1”中沒有“%2”所需的模型</translation>
    </message>
    <message>
        <source>%1: %2 models</source>
        <translation>%1：%2 個模型</translation>
    </message>
    <message>
        <source>Choose models</source>
        <translation>選擇模型</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>檔案(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open checkpoint as a new column…</source>
        <translation>將檢查點開啟為新欄(&amp;O)…</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>開啟檢查點</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>檢查點 (*.safetensors)</translation>
    </message>
    <message>
        <source>Open &amp;sentence list…</source>
        <translation>開啟句子清單(&amp;S)…</translation>
    </message>
    <message>
        <source>Open training &amp;probe…</source>
        <translation>開啟訓練探針(&amp;P)…</translation>
    </message>
    <message>
        <source>Open training probe</source>
        <translation>開啟訓練探針</translation>
    </message>
    <message>
        <source>Probe files (*.probe.json);;All files (*)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>探針檔案 (*.probe.json);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>A training probe could not be opened</source>
        <translation>無法開啟訓練探針</translation>
    </message>
    <message>
        <source>opened %1</source>
        <translation>已開啟 %1</translation>
    </message>
    <message>
        <source>&amp;Watch folder…</source>
        <translation>監看資料夾(&amp;W)…</translation>
    </message>
    <message>
        <source>Watch folder of checkpoints</source>
        <translation>監看檢查點資料夾</translation>
    </message>
    <message>
        <source>Stop &amp;watching</source>
        <translation>停止監看(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Recent sentences</source>
        <translation>最近的句子(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;workspace…</source>
        <translation>開啟工作區(&amp;W)…</translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation>開啟工作區</translation>
    </message>
    <message>
        <source>attnviz workspace (*.attnviz.json *.json)</source>
        <translation>attnviz 工作區 (*.attnviz.json *.json)</translation>
    </message>
    <message>
        <source>Save workspace &amp;as…</source>
        <translation>工作區另存為(&amp;A)…</translation>
    </message>
    <message>
        <source>Save workspace</source>
        <translation>儲存工作區</translation>
    </message>
    <message>
        <source>attnviz workspace (*.attnviz.json)</source>
        <translation>attnviz 工作區 (*.attnviz.json)</translation>
    </message>
    <message>
        <source>&amp;Export figure…</source>
        <translation>匯出圖(&amp;E)…</translation>
    </message>
    <message>
        <source>wrote %1</source>
        <translation>已寫入 %1</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>匯出資料(&amp;D)…</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>匯出資料</translation>
    </message>
    <message>
        <source>CSV, long form (*.csv);;JSON dump (*.json);;NumPy (*.npy)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>CSV，長格式 (*.csv);;JSON 傾印 (*.json);;NumPy (*.npy)</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>已匯出 %1</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>結束(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>檢視(&amp;V)</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>編碼器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解碼器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>Next query</source>
        <translation>下一個查詢</translation>
    </message>
    <message>
        <source>Previous query</source>
        <translation>上一個查詢</translation>
    </message>
    <message>
        <source>Clear query</source>
        <translation>清除查詢</translation>
    </message>
    <message>
        <source>Next column</source>
        <translation>下一欄</translation>
    </message>
    <message>
        <source>Previous column</source>
        <translation>上一欄</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>縮小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual size</source>
        <translation>實際大小(&amp;A)</translation>
    </message>
    <message>
        <source>Focus the sentence</source>
        <extracomment>Moves the keyboard focus to the sentence field</extracomment>
        <translation>將焦點移至句子欄位</translation>
    </message>
    <message>
        <source>&amp;Columns</source>
        <translation>欄(&amp;C)</translation>
    </message>
    <message>
        <source>Show every &amp;layer of the clicked model</source>
        <translation>顯示所點選模型的所有層(&amp;L)</translation>
    </message>
    <message>
        <source>all models</source>
        <translation>所有模型</translation>
    </message>
    <message>
        <source>every layer of %1 (Ctrl+Shift+L: back to all models)</source>
        <translation>%1 的所有層（Ctrl+Shift+L：返回所有模型）</translation>
    </message>
    <message>
        <source>Move clicked column &amp;left</source>
        <translation>左移所點選的欄(&amp;L)</translation>
    </message>
    <message>
        <source>Move clicked column &amp;right</source>
        <translation>右移所點選的欄(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Remove clicked column</source>
        <translation>移除所點選的欄(&amp;R)</translation>
    </message>
    <message>
        <source>current column: %1</source>
        <translation>目前欄：%1</translation>
    </message>
    <message>
        <source>Sentence list</source>
        <translation>句子清單</translation>
    </message>
    <message>
        <source>Text or TSV (*.txt *.tsv);;All files (*)</source>
        <extracomment>File dialog filters: translate the descriptions; keep the patterns and &quot;;;&quot;</extracomment>
        <translation>文字或 TSV (*.txt *.tsv);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>A sentence list could not be opened</source>
        <translation>無法開啟句子清單</translation>
    </message>
    <message>
        <source>(none yet: press Enter in the sentence field)</source>
        <translation>（尚無：在句子欄位中按 Enter）</translation>
    </message>
    <message>
        <source>One line per model (mean of its heads)</source>
        <extracomment>Query profile dock: how the profile plot draws the clicked query&apos;s attention</extracomment>
        <translation>每個模型一條線（其各頭的平均）</translation>
    </message>
    <message>
        <source>One line per head of the clicked model</source>
        <extracomment>Query profile dock: how the profile plot draws the clicked query&apos;s attention</extracomment>
        <translation>所點選模型的每個頭各一條線</translation>
    </message>
    <message>
        <source>Query profile</source>
        <translation>查詢分佈</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>句子</translation>
    </message>
    <message>
        <source>Variant</source>
        <extracomment>Dock title: the attention variant of the clicked model</extracomment>
        <translation>注意力變體</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>訓練</translation>
    </message>
    <message>
        <source>Heads</source>
        <extracomment>Dock title: the table of attention heads</extracomment>
        <translation>注意力頭</translation>
    </message>
    <message>
        <source>Offset profiles</source>
        <translation>偏移分佈</translation>
    </message>
    <message>
        <source>Over training</source>
        <translation>訓練過程</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
    <message>
        <source>attnviz — compare attention variants</source>
        <translation>attnviz — 比較注意力變體</translation>
    </message>
    <message>
        <source>Type a sentence, e.g. I want to go to the station</source>
        <translation>輸入一個句子，例如 I want to go to the station</translation>
    </message>
    <message>
        <source>Target (empty: each model decodes greedily)</source>
        <translation>目標句（留空：各模型以貪婪法解碼）</translation>
    </message>
    <message>
        <source>Show only the models a comparison needs, in its order: dot-product vs hard-coded Gaussian (HC-SA), the HC-SA paper&apos;s four, the Synthesizer family, or every model (also Columns › Compare)</source>
        <translation>只顯示一個比較所需的模型，按其順序：點積 vs 硬編碼高斯（HC-SA）、HC-SA 論文的四個模型、Synthesizer 家族，或全部模型（也在「欄 › 對比」中）</translation>
    </message>
    <message>
        <source>%1 · %2 models</source>
        <extracomment>A model set in the Models box and how many models it has</extracomment>
        <translation>%1 · %2 個模型</translation>
    </message>
    <message>
        <source>%1 · %2 of %3 models shown</source>
        <extracomment>The current model set in the Models box when some of its models are not shown: %2 of its %3 models are</extracomment>
        <translation>%1 · 顯示 %3 個模型中的 %2 個</translation>
    </message>
    <message>
        <source>The bundled models to compare: real English → Spanish text with subword pieces, the toy translation task whose gold alignments are exact, or language models. Replaces the columns.</source>
        <translation>要比較的內建模型：帶子詞切分的真實英語 → 西班牙語文本、參考對齊完全準確的玩具翻譯任務，或語言模型。會取代現有的欄。</translation>
    </message>
    <message>
        <source>M&amp;odels</source>
        <extracomment>Form label: the bundled set of models compared</extracomment>
        <translation>模型(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Source</source>
        <extracomment>Form label: the source sentence</extracomment>
        <translation>源句(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Target</source>
        <extracomment>Form label: the target sentence (the reference translation)</extracomment>
        <translation>目標句(&amp;T)</translation>
    </message>
    <message>
        <source>zoom %1%</source>
        <translation>縮放 %1%</translation>
    </message>
    <message>
        <source>analysing…</source>
        <translation>正在分析…</translation>
    </message>
    <message>
        <source>%1 of %2 models could not run</source>
        <translation>%2 個模型中有 %1 個無法執行</translation>
    </message>
    <message>
        <source>Models that could not run on this sentence</source>
        <translation>無法在此句子上執行的模型</translation>
    </message>
    <message>
        <source>Quit attnviz</source>
        <translation>結束 attnviz</translation>
    </message>
    <message>
        <source>Watching %1</source>
        <translation>正在監看 %1</translation>
    </message>
    <message>
        <source>Checkpoints appearing in %1 become columns; a replaced file updates its column (File › Stop watching)</source>
        <translation>%1 中出現的檢查點會成為新欄；被取代的檔案會更新其欄（檔案 › 停止監看）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>Status bar: a problem&apos;s heading, then its detail</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 … (see Problems)</source>
        <extracomment>Status bar: a problem&apos;s heading, then the first of its details</extracomment>
        <translation>%1：%2 …（見「問題」）</translation>
    </message>
    <message>
        <source>A checkpoint could not be opened</source>
        <translation>無法開啟檢查點</translation>
    </message>
    <message>
        <source>Switch models</source>
        <translation>切換模型</translation>
    </message>
    <message>
        <source>%1 checkpoint(s) in %2 could not be opened and were skipped</source>
        <translation>%2 中有 %1 個檢查點無法開啟，已略過</translation>
    </message>
    <message>
        <source>No models in %1</source>
        <translation>%1 中沒有模型</translation>
    </message>
    <message>
        <source>The set &quot;%1&quot; has no checkpoints here (scripts/train-bundled-models %2 makes them).</source>
        <translation>模型集「%1」在此處沒有檢查點（可用 scripts/train-bundled-models %2 產生）。</translation>
    </message>
    <message>
        <source>%1 models: %2</source>
        <extracomment>Status bar: how many models were opened, then the model set&apos;s name</extracomment>
        <translation>%1 個模型：%2</translation>
    </message>
    <message>
        <source>A workspace could not be opened</source>
        <translation>無法開啟工作區</translation>
    </message>
    <message>
        <source>%1 of %2 checkpoints of the workspace %3 could not be opened</source>
        <translation>工作區 %3 的 %2 個檢查點中有 %1 個無法開啟</translation>
    </message>
    <message>
        <source>The last workspace was not reopened: opening it did not finish at the last start (the app may have crashed on one of its files). Its checkpoints:</source>
        <translation>未重新開啟上次的工作區：上次啟動時未能完成開啟（程式可能在讀取其中某個檔案時當機）。其檢查點：</translation>
    </message>
    <message>
        <source>Open the last workspace anyway</source>
        <translation>仍要開啟上次的工作區</translation>
    </message>
    <message>
        <source>%1 of %2 checkpoints of the last workspace could not be opened and are left out of it</source>
        <translation>上次工作區的 %2 個檢查點中有 %1 個無法開啟，已略去</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>語言(&amp;L)</translation>
    </message>
    <message>
        <source>System language</source>
        <extracomment>View › Language: follow the operating system&apos;s language</extracomment>
        <translation>跟隨系統語言</translation>
    </message>
    <message>
        <source>Interface language: %1</source>
        <extracomment>Status bar, after View › Language: %1 the language&apos;s own name</extracomment>
        <translation>介面語言：%1</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Part of the workspace&apos;s image mode could not be restored</source>
        <translation>無法恢復工作區影像模式的部分設定</translation>
    </message>
    <message>
        <source>&amp;Present</source>
        <extracomment>The button beside Compare that starts the presentation mode (full screen)</extracomment>
        <translation>演示(&amp;P)</translation>
    </message>
    <message>
        <source>Presentation mode (%1): full screen, large labels, the shown columns under the sentence; ← → step through the tokens, Esc leaves (also View › Presentation mode)</source>
        <extracomment>%1 the shortcut (F5)</extracomment>
        <translation>演示模式（%1）：全螢幕、大號標籤，句子下方是所顯示的欄；← → 逐個詞元切換，Esc 退出（也可用 檢視 › 演示模式）</translation>
    </message>
    <message>
        <source>%1 learned from the %2 photos and %3 from the %4 photos: your photo and the test strip are prepared as %1&apos;s were, for every column</source>
        <translation>%1 學習的是「%2」資料集，%3 學習的是「%4」資料集：你的照片和測試影像條對每一欄都按 %1 的資料集準備</translation>
    </message>
    <message>
        <source>The columns learned from differently prepared photos</source>
        <translation>這些欄學習的照片準備方式不同</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ModelPicker</name>
    <message>
        <source>Choose models</source>
        <translation>選擇模型</translation>
    </message>
    <message>
        <source>Tick the models to show; drag them (or Alt+Up/Down) into the order of the columns.</source>
        <translation>勾選要顯示的模型；拖動它們（或按 Alt+上/下）排列各列的順序。</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::OffsetProfileView</name>
    <message>
        <source>Each head&apos;s mean weight at each offset j − i (solid) beside the profile of its best-fitting Gaussian window (dashed), for the current sentence and the view&apos;s block and layer; μ, σ and R² in each title (docs/analysis.md)</source>
        <translation>每個頭在各偏移 j − i 處的平均權重（實線）及其最佳擬合高斯窗口的偏移分佈（虛線），針對目前句子及檢視所選的模組和層；各標題中列出 μ、σ 和 R²（見 docs/analysis.md）</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>計算中…</translation>
    </message>
    <message>
        <source>no model to show</source>
        <translation>沒有可顯示的模型</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Presentation</name>
    <message>
        <source>%1 &lt;small&gt;(%2)&lt;/small&gt;</source>
        <extracomment>Presentation caption: %1 a model&apos;s translation of the sentence, %2 the model</extracomment>
        <translation>%1 &lt;small&gt;（%2）&lt;/small&gt;</translation>
    </message>
    <message>
        <source>← → step through the tokens · Esc leaves</source>
        <extracomment>Presentation caption: how to use the keys while presenting</extracomment>
        <translation>← → 逐個詞元切換 · Esc 退出</translation>
    </message>
    <message>
        <source>Query %1 of %2: “%3”</source>
        <extracomment>Presentation caption: the selected query, %1 of %2 tokens (counted from 1), %3 the token; a token that occurs more than once is followed by which one, e.g. &quot;(2nd)&quot;</extracomment>
        <translation>查詢第 %1 個（共 %2 個）：“%3”</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ProblemsPanel</name>
    <message>
        <source>&amp;Clear problems</source>
        <translation>清除問題(&amp;C)</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ProfilePlot</name>
    <message>
        <source>%1 and %2 more, identical</source>
        <extracomment>Profile legend: lines identical to the first are drawn once; %1 the first line&apos;s name, %2 how many others are the same, e.g. &quot;head 0 and 10 more, identical&quot;</extracomment>
        <translation>%1 及另外 %2 條，完全相同</translation>
    </message>
    <message>
        <source>Click a query token to see its weights over the keys</source>
        <translation>點選一個查詢詞元，檢視它在各鍵上的權重</translation>
    </message>
    <message>
        <source>weight</source>
        <extracomment>Axis title of the profile plot: the attention weight</extracomment>
        <translation>權重</translation>
    </message>
    <message>
        <source>No model has this block for the selected query</source>
        <translation>對於所選查詢，沒有模型包含此模組</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SentenceList</name>
    <message>
        <source>&apos;%1&apos; is not valid UTF-8 text</source>
        <translation>「%1」不是有效的 UTF-8 文字</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has no sentences</source>
        <translation>「%1」中沒有句子</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::Session</name>
    <message>
        <source>%1: its edited settings in the workspace were not applied: %2</source>
        <translation>%1：其在工作區中編輯過的設定未被套用：%2</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::SingleInstance</name>
    <message>
        <source>no private folder for the single-window socket (%1): this window will not take files from later starts</source>
        <translation>沒有可供單一視窗通訊端使用的私人資料夾（%1）：此視窗將不會接收之後啟動時傳來的檔案</translation>
    </message>
    <message>
        <source>the single-window socket&apos;s folder is not private (%1): this window will not take files from later starts</source>
        <translation>單一視窗通訊端所在的資料夾不是私人的（%1）：此視窗將不會接收之後啟動時傳來的檔案</translation>
    </message>
    <message>
        <source>cannot listen on %1 (%2): this window will not take files from later starts</source>
        <translation>無法在 %1 上監聽（%2）：此視窗將不會接收之後啟動時傳來的檔案</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::TrainingDock</name>
    <message>
        <source>data file…</source>
        <extracomment>Task combo box item: train on a data file chosen below instead of a built-in task</extracomment>
        <translation>資料檔案…</translation>
    </message>
    <message>
        <source>tiny (d 32, 2 heads, 1+1)</source>
        <translation>微型（d 32，2 個頭，1+1）</translation>
    </message>
    <message>
        <source>small (d 48, 4 heads, 2+2)</source>
        <translation>小型（d 48，4 個頭，2+2）</translation>
    </message>
    <message>
        <source>medium (d 64, 4 heads, 2+2)</source>
        <translation>中型（d 64，4 個頭，2+2）</translation>
    </message>
    <message>
        <source>&amp;Task</source>
        <translation>任務(&amp;T)</translation>
    </message>
    <message>
        <source>Data</source>
        <extracomment>Form label: the training data file</extracomment>
        <translation>資料</translation>
    </message>
    <message>
        <source>Tokeni&amp;zer</source>
        <translation>分詞器(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Variant</source>
        <extracomment>Form label: the attention variant to train</extracomment>
        <translation>變體(&amp;V)</translation>
    </message>
    <message>
        <source>Si&amp;ze</source>
        <extracomment>Form label: the model size</extracomment>
        <translation>規模(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Steps</source>
        <extracomment>Form label: the number of training steps</extracomment>
        <translation>步數(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>訓練(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暫停(&amp;P)</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>Sa&amp;ve model…</source>
        <translation>儲存模型(&amp;V)…</translation>
    </message>
    <message>
        <source>idle</source>
        <extracomment>Progress bar text: no training run yet</extracomment>
        <translation>閒置</translation>
    </message>
    <message>
        <source>step</source>
        <extracomment>Loss plot axis title: the training step</extracomment>
        <translation>步</translation>
    </message>
    <message>
        <source>training loss</source>
        <translation>訓練損失</translation>
    </message>
    <message>
        <source>TSV (source&lt;TAB&gt;target) or text (language model)</source>
        <translation>TSV 或純文字（語言模型）</translation>
    </message>
    <message>
        <source>words (unknown words become &lt;unk&gt;)</source>
        <translation>詞級（未知詞變為 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>subwords: SentencePiece trained on the data (never &lt;unk&gt;)</source>
        <translation>子詞：以該資料訓練的 SentencePiece（不會產生 &lt;unk&gt;）</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>訓練資料</translation>
    </message>
    <message>
        <source>Text or TSV (*.txt *.tsv);;All files (*)</source>
        <translation>文字或 TSV (*.txt *.tsv);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>&amp;Record attention over training</source>
        <translation>記錄訓練過程中的注意力(&amp;R)</translation>
    </message>
    <message>
        <source>every </source>
        <extracomment>Spin box prefix, read with the value and the suffix: &quot;every 50 steps&quot;</extracomment>
        <translation>每 </translation>
    </message>
    <message>
        <source> steps</source>
        <extracomment>Spin box suffix, read with the prefix and the value: &quot;every 50 steps&quot;</extracomment>
        <translation> 步</translation>
    </message>
    <message>
        <source>The current sentence&apos;s attention is recorded every N steps and shown in the Over training dock</source>
        <translation>每 N 步記錄一次目前句子的注意力，並顯示在「訓練過程」停駐視窗中</translation>
    </message>
    <message>
        <source>Cannot train: %1</source>
        <translation>無法訓練：%1</translation>
    </message>
    <message>
        <source>a training run is already in progress</source>
        <translation>已有訓練正在進行</translation>
    </message>
    <message>
        <source>preparing…</source>
        <translation>準備中…</translation>
    </message>
    <message>
        <source>%1 / %2 · loss %3 · ETA %4:%5</source>
        <extracomment>Progress bar: step / total steps, the loss, the time left (minutes:seconds)</extracomment>
        <translation>%1 / %2 · 損失 %3 · 預計剩餘 %4:%5</translation>
    </message>
    <message>
        <source>%1k tokens/s</source>
        <translation>%1k 詞元/秒</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>訓練失敗：%1</translation>
    </message>
    <message>
        <source>held-out loss&#xa0;%1, token accuracy&#xa0;%2%, BLEU&#xa0;%3</source>
        <translation>保留集損失&#xa0;%1，詞元準確率&#xa0;%2%，BLEU&#xa0;%3</translation>
    </message>
    <message>
        <source>held-out loss&#xa0;%1, token accuracy&#xa0;%2%</source>
        <translation>保留集損失&#xa0;%1，詞元準確率&#xa0;%2%</translation>
    </message>
    <message>
        <source>done · %1</source>
        <extracomment>Progress bar after a run: &quot;done · held-out loss 1.234, …&quot;</extracomment>
        <translation>完成 · %1</translation>
    </message>
    <message>
        <source>no held-out set: the data were too few to hold any line out (every 20th line is held out)</source>
        <translation>沒有留出集：資料太少，沒有任何一行被留出（每 20 行留出一行）</translation>
    </message>
    <message>
        <source>trained %1: %2</source>
        <translation>已訓練 %1：%2</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>繼續(&amp;R)</translation>
    </message>
    <message>
        <source>Save model</source>
        <translation>儲存模型</translation>
    </message>
    <message>
        <source>Checkpoints (*.safetensors)</source>
        <translation>檢查點 (*.safetensors)</translation>
    </message>
    <message>
        <source>saved %1</source>
        <translation>已儲存 %1</translation>
    </message>
    <message>
        <source>Save %1 models into a folder</source>
        <translation>將 %1 個模型儲存到資料夾</translation>
    </message>
    <message>
        <source>Cannot save: %1</source>
        <translation>無法儲存：%1</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::UnsavedPrompt</name>
    <message>
        <source>&amp;Save models…</source>
        <translation>儲存模型(&amp;S)…</translation>
    </message>
    <message>
        <source>Saves them (one file dialog for one model, one folder for several), then goes on</source>
        <translation>儲存它們（一個模型用檔案對話方塊，多個模型選一個資料夾），然後繼續</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::VariantPanel</name>
    <message>
        <source>&amp;Reset to trained values</source>
        <translation>恢復為訓練值(&amp;R)</translation>
    </message>
    <message>
        <source>Puts every edited setting of this model back to what its checkpoint holds</source>
        <translation>將此模型所有已編輯的設定恢復為其檢查點中的值</translation>
    </message>
    <message>
        <source>%1: back to its trained values</source>
        <translation>%1：已恢復為訓練值</translation>
    </message>
    <message>
        <source>Click a panel to see its variant.</source>
        <translation>點選一個面板以檢視其變體。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 (%3 heads)</source>
        <extracomment>A block of the model: its kind (&quot;enc self&quot;), its attention variant, its head count</extracomment>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2（%3 個頭）</translation>
    </message>
    <message>
        <source>parameters: %1 (%2 trainable)</source>
        <translation>參數量：%1（其中 %2 可訓練）</translation>
    </message>
    <message>
        <source>%1: numbers separated by commas, e.g. -1, 1</source>
        <extracomment>%1 an option&apos;s name (not translated)</extracomment>
        <translation>%1：以逗號分隔的數字，例如 -1, 1</translation>
    </message>
    <message>
        <source>&lt;b&gt;stem&lt;/b&gt;: 3 × 3 convolutions of stride 2 to %1 channels, before the patches</source>
        <extracomment>An image model&apos;s convolutional stem: %1 its channel counts, e.g. &quot;24, 48, 64&quot;</extracomment>
        <translation>&lt;b&gt;卷積主幹&lt;/b&gt;：在切塊之前，用 3 × 3、步長 2 的卷積依次變為 %1 個通道</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewControls</name>
    <message>
        <source>What the panels hold: the attention weights; attention rollout through the self-attention layers (Abnar &amp; Zuidema 2020); each model minus the first column (same block, layer and head; move a column first to compare against it); or each head minus its best-fitting Gaussian window. Differences use a blue–white–red scale centred at 0 (docs/analysis.md).
− column 1 compares maps, not matching heads: separately trained models&apos; heads do not correspond (head k of one model is not head k of another), so a head&apos;s difference says how two maps differ, not how one head changed. Layout › Mean compares each model&apos;s mean map; models with different head counts are not subtracted head by head (their panels say so).</source>
        <translation>面板顯示的內容：注意力權重；逐層經過各個自注意力層的注意力展開（rollout，Abnar &amp; Zuidema 2020）；各模型減去第 1 列（相同模組、層和頭；要與某一列對比，請先將其移到第 1 列）；或各頭減去其最佳擬合高斯視窗。差值使用以 0 為中心的藍–白–紅色階（見 docs/analysis.md）。
“− 第 1 列”比較的是注意力圖，而不是相互對應的頭：分別訓練的模型的頭並不對應（一個模型的第 k 個頭不是另一個模型的第 k 個頭），所以某個頭的差值說明的是兩張圖的差別，而不是某個頭如何變化。佈局 › 平均 比較各模型的平均注意力圖；頭數不同的模型不會逐頭相減（其面板會說明）。</translation>
    </message>
    <message>
        <source>Each model&apos;s maps minus the first column&apos;s, head k minus head k. Heads of separately trained models do not correspond: this compares maps, not matching heads</source>
        <extracomment>Tooltip of the combo box item &quot;− column 1&quot;</extracomment>
        <translation>各模型的注意力圖減去第 1 列的，第 k 個頭減第 k 個頭。分別訓練的模型的頭並不對應：這比較的是注意力圖，而不是相互對應的頭</translation>
    </message>
    <message>
        <source>S&amp;hared scale</source>
        <extracomment>Check box: one colour scale for every panel</extracomment>
        <translation>共用色階(&amp;H)</translation>
    </message>
    <message>
        <source>One colour scale for every panel, its colour bar beside the grid, so that panels compare; off, each panel tops at its own largest weight</source>
        <translation>所有面板共用一個色階，色條在網格旁邊，便於比較各面板；關閉時，每個面板以其自身的最大權重為頂</translation>
    </message>
    <message>
        <source>&amp;Words</source>
        <translation>整詞(&amp;W)</translation>
    </message>
    <message>
        <source>Li&amp;nes</source>
        <translation>連線(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Quality</source>
        <extracomment>Check box: show each model&apos;s held-out quality (BLEU, accuracy, AER) in its column header</extracomment>
        <translation>品質(&amp;Q)</translation>
    </message>
    <message>
        <source>Show each model&apos;s held-out quality in its column header, as its checkpoint records it: BLEU for translation models (else token accuracy) and the best head&apos;s AER; nothing for models without these numbers. Hover a header for what they mean</source>
        <translation>在各欄標題中顯示模型的留出集品質（取自其檢查點的記錄）：翻譯模型顯示 BLEU（否則顯示詞元準確率）以及最佳注意力頭的 AER；沒有這些數值的模型不顯示。將滑鼠游標停在標題上可檢視其含義</translation>
    </message>
    <message>
        <source>Draw each head as lines from the query tokens (left) to the key tokens (right), stronger lines for larger weights; hover a token to see only its lines, click a query to select it</source>
        <translation>將每個頭繪製為從查詢詞元（左）到鍵詞元（右）的連線，權重越大線條越明顯；滑鼠游標停在詞元上時只顯示其連線，點選查詢可將其選取</translation>
    </message>
    <message>
        <source>Merge subword pieces into words: a word&apos;s weight as a key is the sum over its pieces, as a query the mean (Clark et al., 2019). Words start where the tokenizer marks a word start (▁); Chinese, Japanese and Korean text has no spaces, so there each character is a word (the panels then say &quot;CJK by character&quot;)</source>
        <translation>將子詞片段合併為詞：詞作為鍵時，其權重為各片段之和；作為查詢時為各片段的平均值（Clark et al., 2019）。詞從分詞器標記的詞首（▁）開始；中文、日文和韓文沒有空格，因此其中每個字為一個詞（此時面板註明「中日韓文字按字」）</translation>
    </message>
    <message>
        <source>Compare: models × heads</source>
        <translation>比較：模型 × 頭</translation>
    </message>
    <message>
        <source>Mean: a panel per model</source>
        <extracomment>Layout combo box item: the mean of each model&apos;s heads, one panel per model</extracomment>
        <translation>平均：每個模型一個面板</translation>
    </message>
    <message>
        <source>Focus: a model&apos;s layers</source>
        <extracomment>Layout combo box item: every layer and head of one model (the clicked one)</extracomment>
        <translation>聚焦：一個模型的各層</translation>
    </message>
    <message>
        <source>Compare every model&apos;s heads; the mean of each model&apos;s heads, one large panel per model; or every layer and head of the clicked model (Ctrl+Shift+L)</source>
        <translation>比較所有模型的頭；顯示每個模型各頭的平均，每個模型一個大面板；或顯示所點選模型的所有層和頭（Ctrl+Shift+L）</translation>
    </message>
    <message>
        <source>Weights</source>
        <extracomment>Combo box item: what the panels show (the attention weights themselves)</extracomment>
        <translation>權重</translation>
    </message>
    <message>
        <source>Rollout</source>
        <extracomment>Combo box item: what the panels show (attention rollout, Abnar &amp; Zuidema 2020)</extracomment>
        <translation>注意力展開（rollout）</translation>
    </message>
    <message>
        <source>− column 1</source>
        <extracomment>Combo box item: what the panels show (each model minus the first column)</extracomment>
        <translation>− 第 1 欄</translation>
    </message>
    <message>
        <source>− Gaussian fit</source>
        <extracomment>Combo box item: what the panels show (each head minus its best-fitting Gaussian window)</extracomment>
        <translation>− 高斯擬合</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>編碼器自注意力</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>解碼器自注意力</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source> pt</source>
        <extracomment>Spin box suffix: points, the unit of the label size</extracomment>
        <translation> pt</translation>
    </message>
    <message>
        <source>Size of the token labels on screen (figures have their own)</source>
        <translation>螢幕上詞元標籤的字型大小（匯出的圖另有設定）</translation>
    </message>
    <message>
        <source>linear</source>
        <extracomment>Colour scaling of the weights: linear</extracomment>
        <translation>線性</translation>
    </message>
    <message>
        <source>power</source>
        <extracomment>Colour scaling of the weights: a power (gamma) curve</extracomment>
        <translation>冪函數</translation>
    </message>
    <message>
        <source>log</source>
        <extracomment>Colour scaling of the weights: logarithmic</extracomment>
        <translation>對數</translation>
    </message>
    <message>
        <source>&amp;Block</source>
        <translation>模組(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>層(&amp;L)</translation>
    </message>
    <message>
        <source>La&amp;yout</source>
        <translation>版面配置(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Colours</source>
        <translation>配色(&amp;C)</translation>
    </message>
    <message>
        <source>Sc&amp;aling</source>
        <translation>尺度(&amp;A)</translation>
    </message>
    <message>
        <source>Lab&amp;els</source>
        <extracomment>View bar: the size of the token labels on screen (points)</extracomment>
        <translation>標籤(&amp;E)</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::ViewState</name>
    <message>
        <source>enc self</source>
        <extracomment>Short label of a block kind: encoder self-attention</extracomment>
        <translation>編碼器自注意力</translation>
    </message>
    <message>
        <source>dec self</source>
        <extracomment>Short label of a block kind: decoder self-attention</extracomment>
        <translation>解碼器自注意力</translation>
    </message>
    <message>
        <source>cross</source>
        <extracomment>Short label of a block kind: cross-attention (encoder–decoder)</extracomment>
        <translation>交叉注意力</translation>
    </message>
</context>
<context>
    <name>attnviz::ui::WorkspaceModel</name>
    <message>
        <source>%1 of %2 models could not run: %3</source>
        <translation>%2 個模型中有 %1 個無法執行：%3</translation>
    </message>
    <message>
        <source>%1 models</source>
        <extracomment>Status: how many models the sentence ran on</extracomment>
        <translation>%1 個模型</translation>
    </message>
</context>
</TS>
